"""Whose feedback page no longer says what the gradebook says: pages are rebuilt for them, wherever they handed in.

A page is written from the gradebook (nbgrader's ``generate_feedback``). Grades change after it is
written: an assistant grades written answers or overrides a score in formgrader, a due date moves,
a flag is cleared. After each run the grading command rewrites the page of every student of the
chapter whose grades changed since theirs was written, not only of those in the folder it was
given. What a page shows of the gradebook is fingerprinted (each cell's scores and comments, the
time handed in and the penalty) and kept in the gradebook's ``course_outputs``
(grading.instructor.gradebook.database) when the page is written.
"""
import hashlib
import json

from nbgrader.api import MissingEntry
from sqlalchemy import select

from grading.instructor.gradebook.database import OUTPUTS, TABLES, opened


def fingerprint(submission) -> str:
    """What a feedback page shows of an nbgrader SubmittedAssignment, as one hash."""
    shown = [str(submission.timestamp), submission.late_submission_penalty]
    for notebook in submission.notebooks:
        shown += [[grade.name, grade.auto_score, grade.manual_score, grade.extra_credit, grade.needs_manual_grade]
                  for grade in notebook.grades]
        shown += [[comment.name, comment.auto_comment, comment.manual_comment] for comment in notebook.comments]
    return hashlib.sha256(json.dumps(shown, default=str).encode()).hexdigest()


def outdated(db_url: str, chapter: str, students: list[str]) -> list[str]:
    """Those of ``students`` whose page was written from other grades than the gradebook's now, or never."""
    with opened(db_url) as gradebook:
        written = dict(gradebook.db.execute(select(OUTPUTS.c.student, OUTPUTS.c.fingerprint)
                                            .where(OUTPUTS.c.assignment == chapter)).all())
        return [student for student in students
                if written.get(student) != _current(gradebook, chapter, student)]


def record(db_url: str, chapter: str, students: list[str]) -> None:
    """The pages of ``students`` were just written from the gradebook as it is."""
    with opened(db_url) as gradebook:
        TABLES.create_all(gradebook.engine)
        for student in students:
            where = (OUTPUTS.c.assignment == chapter, OUTPUTS.c.student == student)
            value = _current(gradebook, chapter, student)
            known = gradebook.db.execute(select(OUTPUTS).where(*where)).first()
            gradebook.db.execute(OUTPUTS.update().where(*where).values(fingerprint=value) if known
                                 else OUTPUTS.insert().values(assignment=chapter, student=student, fingerprint=value))
        gradebook.db.commit()


def _current(gradebook, chapter: str, student: str) -> str | None:
    try:
        return fingerprint(gradebook.find_submission(chapter, student))
    except MissingEntry:
        return None
