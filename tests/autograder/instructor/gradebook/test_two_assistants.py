"""Two assistants grading written answers at once on a PostgreSQL gradebook lose nothing.

Each assistant is a process of its own with its own nbgrader Gradebook session, as two formgrader servers
are: formgrader saves a score or a comment by finding its row, changing it and committing. Both assistants
hold their changes uncommitted at the same moment (a barrier) before committing, on different students and on
different cells of one student; every score and comment must be in the gradebook afterwards.
"""
import multiprocessing
import os
import sys

from nbgrader.api import Gradebook

ASSIGNMENT, NOTEBOOK, CELLS, STUDENTS = "01_tokens", "01_tokens", ("written_a", "written_b"), ("ana", "ben")
# who grades what: assistant 0 both cells of ana and one of ben's, assistant 1 the other cell of ben's
SHARES = ([("ana", "written_a"), ("ana", "written_b"), ("ben", "written_a")], [("ben", "written_b")])
OVERLAP_S = 30  # how long an assistant waits for the other to hold its changes too


def class_with_written_answers(db_url: str) -> None:
    with Gradebook(db_url) as gradebook:
        gradebook.add_assignment(ASSIGNMENT)
        gradebook.add_notebook(NOTEBOOK, ASSIGNMENT)
        for cell in CELLS:
            gradebook.add_grade_cell(cell, NOTEBOOK, ASSIGNMENT, max_score=5, cell_type="markdown")
            gradebook.add_solution_cell(cell, NOTEBOOK, ASSIGNMENT)
        for student in STUDENTS:
            gradebook.add_student(student)
            gradebook.add_submission(ASSIGNMENT, student)


def score(student: str, cell: str) -> float:
    return 1 + STUDENTS.index(student) + 2 * CELLS.index(cell)


def assistant(db_url: str, share: list, both_hold: multiprocessing.Barrier, errors: multiprocessing.Queue) -> None:
    """Grade ``share`` as formgrader saves a grade: find the row, change it, commit."""
    try:
        with Gradebook(db_url) as gradebook:
            try:
                for student, cell in share:
                    grade = gradebook.find_grade(cell, NOTEBOOK, ASSIGNMENT, student)
                    grade.manual_score = score(student, cell)
                    comment = gradebook.find_comment(cell, NOTEBOOK, ASSIGNMENT, student)
                    comment.manual_comment = f"{student}: {cell} read"
                gradebook.db.flush()  # the rows are written (and locked) now, not yet committed
            finally:
                both_hold.wait(OVERLAP_S)
            gradebook.db.commit()
    except Exception as error:  # noqa: BLE001 - reported to the test, which names it
        errors.put(f"{type(error).__name__}: {error}")


def test_two_assistants_grading_at_once_lose_nothing(postgresql_url, monkeypatch):
    # nbgrader creates a new gradebook's tables with alembic, by name, as from an activated environment
    monkeypatch.setenv("PATH", os.pathsep.join([os.path.dirname(sys.executable), os.environ["PATH"]]))
    class_with_written_answers(postgresql_url)
    fork = multiprocessing.get_context("fork")
    both_hold, errors = fork.Barrier(len(SHARES)), fork.Queue()
    assistants = [fork.Process(target=assistant, args=(postgresql_url, share, both_hold, errors)) for share in SHARES]
    for process in assistants:
        process.start()
    for process in assistants:
        process.join(2 * OVERLAP_S)
    failures = [errors.get() for _ in range(errors.qsize())]
    assert not failures, failures
    with Gradebook(postgresql_url) as gradebook:
        for share in SHARES:
            for student, cell in share:
                assert gradebook.find_grade(cell, NOTEBOOK, ASSIGNMENT, student).manual_score == score(student, cell)
                assert gradebook.find_comment(cell, NOTEBOOK, ASSIGNMENT, student).manual_comment == \
                    f"{student}: {cell} read"
