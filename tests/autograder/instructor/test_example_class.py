"""A real nbgrader round trip on the bundled example class: release, submit, autograde, feedback, export.

Every autograded test cell is itself tested here: the solution earns every point, the
untouched student version earns none (and grading does not crash), each wrong
submission loses exactly the cells its bug should cost, and its feedback gives the hints
for its bug and no hint meant for another.
"""
import csv
import html
import re
from pathlib import Path

import nbformat
import pytest
from nbgrader.api import Gradebook

from grading.instructor.course import SOLUTIONS, chapters
from grading.instructor.example_class import EXAMPLES, grade_class, load_students
from grading.instructor.outputs import export
from grading.instructor.release.notebooks import leaked, secret_lines
from tests.autograder.instructor.conftest import formgrader_api

CHAPTERS = [c for c in chapters() if (EXAMPLES / c).is_dir()]
# "fix lstm_step first", "make that pass first": a pointer to the function or test to fix first, not a bug's hint
POINTER = re.compile(r"\b(fix|make)\b.*\bfirst\b")
# the text of a cell's output on a feedback page (nbconvert's classic HTML)
OUTPUT_TEXT = re.compile(r'<div class="output_subarea[^"]*">\s*<pre>(.*?)</pre>', re.DOTALL)
# chapters whose students name every hint their failures give (hint: lines), so that each gets exactly its own
EXACT_HINTS = ("01_tokens", "02_pooling", "03_embeddings", "04_rnn", "05_lstm_gru", "06_bidirectional", "07_cnn",
               "08_positional", "09_ctc", "10_crf", "11_seq2seq", "12_transformer", "13_gpt", "14_ssm")


@pytest.fixture(scope="module")
def class_folder(tmp_path_factory) -> Path:
    """One work folder for every chapter, as `make example-class` grades them: one gradebook, which formgrader shows."""
    return tmp_path_factory.mktemp("example-class")


@pytest.fixture(scope="module", params=CHAPTERS)
def graded(request, class_folder, grading_workers) -> tuple[str, Path, Path]:
    chapter = request.param
    return chapter, class_folder, grade_class(chapter, class_folder, workers=grading_workers)


def cell_scores(workdir: Path, chapter: str, student: str) -> dict[str, tuple[float, float]]:
    """(score, max score) of every autograded test cell of one submission, from nbgrader's gradebook."""
    with Gradebook(f"sqlite:///{workdir / 'gradebook.db'}") as gradebook:
        submission = gradebook.find_submission(chapter, student)
        return {grade.name: (grade.score, grade.max_score)
                for notebook in submission.notebooks for grade in notebook.grades if grade.cell.cell_type == "code"}


def cells_graded_with_each_answer(chapter: str) -> dict[str, set[str]]:
    """Grade ids of the chapter's answer cells (its graded functions), each with the test cells that
    call a function the answer cell defines (tests call students' functions only through ``call``)."""
    notebook = nbformat.read(SOLUTIONS / chapter / f"{chapter}.ipynb", as_version=4)
    graded = [(cell.metadata["nbgrader"], cell.source) for cell in notebook.cells
              if cell.cell_type == "code" and cell.metadata.get("nbgrader", {}).get("grade_id")]
    answer_of = {function: meta["grade_id"] for meta, source in graded if meta.get("solution")
                 for function in re.findall(r"^def (\w+)\(", source, re.MULTILINE)}
    tests = {meta["grade_id"]: set() for meta, _ in graded if meta.get("solution")}
    for meta, source in graded:
        if meta.get("grade"):
            for function in set(re.findall(r"\bcall\((\w+)", source)) & set(answer_of):
                tests[answer_of[function]].add(meta["grade_id"])
    return tests


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_the_example_class_covers_the_required_cases(chapter):
    """Two typical mistakes per graded function, every test cell caught by one, an alternative correct student."""
    students = load_students(chapter)
    assert {"correct", "untouched"} <= {s.student_id for s in students}
    wrong = [s for s in students if s.loses and s.loses != ["everything"]]
    assert len(wrong) >= 3, f"{chapter}: the example class needs at least three typical wrong submissions"
    tests = cells_graded_with_each_answer(chapter)
    for answer, its_tests in tests.items():  # a mistake rewrites the answer and loses one of its tests
        mistakes = [s.student_id for s in wrong if answer in s.cells and its_tests & set(s.loses)]
        assert len(mistakes) >= 2, f"{chapter}: {answer} has {len(mistakes)} wrong version(s) ({mistakes}), not two"
    never_lost = {t for its_tests in tests.values() for t in its_tests} - {cell for s in wrong for cell in s.loses}
    assert not never_lost, f"{chapter}: no wrong submission shows that {sorted(never_lost)} can fail"
    unsaid = [s.student_id for s in wrong if s.hints is None]
    assert not unsaid, f"{chapter}: {unsaid} name no `hint:` their failures must give (`hint: none` if none applies)"
    alternatives = [s for s in students if not s.loses and s.student_id != "correct" and s.cells]
    assert alternatives, f"{chapter}: no alternative correct submission shows that a different valid answer keeps full marks"


def test_each_submission_earns_exactly_the_points_its_bug_allows(graded):
    chapter, workdir, _ = graded
    students = load_students(chapter)
    all_cells = set(cell_scores(workdir, chapter, "correct"))
    for student in students:
        scores = cell_scores(workdir, chapter, student.student_id)
        assert set(scores) == all_cells, f"{student.student_id}: nbgrader did not grade every test cell"
        should_lose = all_cells if student.loses == ["everything"] else set(student.loses)
        assert should_lose <= all_cells, f"{student.student_id}: `loses` names unknown cells {should_lose - all_cells}"
        lost = {cell for cell, (score, maximum) in scores.items() if score < maximum}
        assert lost == should_lose, f"{student.student_id} lost {sorted(lost)}, expected {sorted(should_lose)}"
        assert all(scores[cell][0] == 0 for cell in lost), f"{student.student_id}: a failing test cell kept points"


def test_autograded_points_total_twenty_per_chapter(graded):
    chapter, workdir, _ = graded
    assert sum(maximum for _, maximum in cell_scores(workdir, chapter, "correct").values()) == 20


def test_feedback_is_generated_for_every_student(graded):
    chapter, workdir, _ = graded
    for student in load_students(chapter):
        pages = list((workdir / "feedback" / student.student_id / chapter).glob("*.html"))
        assert pages, f"no feedback for {student.student_id}"
        assert "Score:" in pages[0].read_text()


def test_untouched_feedback_tells_the_student_what_to_do(graded):
    chapter, workdir, _ = graded
    assert "is not implemented yet" in feedback_text(workdir, chapter, "untouched")


def feedback_text(workdir: Path, chapter: str, student: str) -> str:
    page = next((workdir / "feedback" / student / chapter).glob("*.html")).read_text()
    return html.unescape(re.sub(r"<[^>]+>", "", page))


def hints_given(workdir: Path, chapter: str, student: str) -> list[str]:
    """The hints of the failure messages on one student's feedback page: ``Hint: ...`` lines of the cells'
    outputs only, since a chapter's own text may give the exercise a "Hint:" of its own."""
    page = next((workdir / "feedback" / student / chapter).glob("*.html")).read_text()
    outputs = "\n".join(html.unescape(re.sub(r"<[^>]+>", "", block)) for block in OUTPUT_TEXT.findall(page))
    return re.findall(r"^Hint: (.*)$", outputs, re.MULTILINE)


def test_every_hint_points_at_the_mistake_that_caused_it(graded):
    """Each submission gets the hints its docstring names (``hint: ...``) and none named for another student's bug."""
    chapter, workdir, _ = graded
    students = load_students(chapter)
    named = {hint for student in students for hint in student.hints or ()}
    for student in students:
        given = hints_given(workdir, chapter, student.student_id)
        own = set(student.hints or ())
        missing = sorted(hint for hint in own if not any(hint in line for line in given))
        assert not missing, f"{student.student_id} was not given the hints {missing}; it got {given}"
        foreign = sorted(hint for hint in named - own if any(hint in line for line in given if not POINTER.search(line)))
        assert not foreign, f"{student.student_id} got hints meant for other mistakes, {foreign}: {given}"


def test_each_typical_mistake_gets_exactly_its_hints(graded):
    """No hint for a bug the submission does not have: every hint given is one its docstring names (a dtype or
    shape mistake gets the dtype or shape hint alone), or a pointer to what to fix first."""
    chapter, workdir, _ = graded
    if chapter not in EXACT_HINTS:
        pytest.skip(f"{chapter}'s students do not name every hint yet")
    for student in load_students(chapter):
        if student.loses and student.loses != ["everything"]:
            given = hints_given(workdir, chapter, student.student_id)
            unnamed = [line for line in given if not POINTER.search(line)
                       and not any(hint in line for hint in student.hints or ())]
            assert not unnamed, f"{student.student_id} got hints for bugs it does not have: {unnamed}"


def test_feedback_never_shows_hidden_tests_or_solutions_the_student_did_not_write(graded):
    chapter, workdir, _ = graded
    hidden = secret_lines(chapter, kinds=("HIDDEN TESTS",))
    solutions = secret_lines(chapter, kinds=("SOLUTION",))
    assert hidden and solutions
    for student in load_students(chapter):
        text = feedback_text(workdir, chapter, student.student_id)
        assert "HIDDEN TESTS" not in text
        shown = leaked(hidden, text)
        assert not shown, f"{student.student_id}'s feedback shows hidden tests: {shown[:3]}"
        if student.answers_from == "release":
            shown = leaked(solutions, text)
            assert not shown, f"{student.student_id}'s feedback shows solution code: {shown[:3]}"


def test_failure_messages_reach_the_feedback_without_grading_internals(graded):
    chapter, workdir, _ = graded
    for student in load_students(chapter):
        if student.loses:
            text = feedback_text(workdir, chapter, student.student_id)
            # a failed check's message, or the error the student's own code raised, at their line
            assert re.search(r"\b(ExerciseFailure|AnswerError):", text) or "at your line, in " in text, \
                f"{student.student_id}'s feedback has no failure message"
            assert "grading/student/checks.py" not in text


def test_the_grades_csv_has_one_row_per_student_with_the_autograded_total(graded):
    chapter, workdir, grades = graded
    with grades.open() as handle:
        rows = {row["student_id"]: row for row in csv.DictReader(handle) if row["assignment"] == chapter}
    students = load_students(chapter)
    # the class is everybody in the gradebook, which the chapters graded before share: the rest did not hand this in
    assert {s for s, row in rows.items() if row["status"] != export.NOT_HANDED_IN} == {s.student_id for s in students}
    for student in students:
        expected = sum(score for score, _ in cell_scores(workdir, chapter, student.student_id).values())
        assert float(rows[student.student_id]["raw_score"]) == expected
    assert float(rows["correct"]["raw_score"]) == 20 and float(rows["untouched"]["raw_score"]) == 0


def test_formgrader_shows_the_chapter_as_the_command_graded_it(graded, formgrader):
    """`make formgrader WORKDIR=classwork/example`: every example student, with the command's score and flags."""
    chapter, workdir, grades = graded
    api = formgrader_api(formgrader(workdir))
    with grades.open() as handle:
        scores = {row["student_id"]: float(row["raw_score"]) for row in csv.DictReader(handle)
                  if row["status"] != export.NOT_HANDED_IN}
    assert api.get_assignment(chapter)["num_submissions"] == len(scores)
    assert {s["student"]: s["score"] for s in api.get_submissions(chapter)} == scores
