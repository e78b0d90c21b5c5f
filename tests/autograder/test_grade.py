"""The grading command on a messy, LMS-style flat folder: every student gets a grade and a reason.

Renamed files, duplicate hand-ins, empty files, invalid JSON, a notebook of another kind, deleted
and reordered cells, an edited test cell and an infinite loop: none may crash the command, change
another student's grade, or cost a student points their answers did not lose.
"""
import csv
import json
import os
import time
from pathlib import Path

import nbformat
import pytest

from grading.example_class import build_submission, load_students
from grading.grade import Limits, grade, summary

CHAPTER = "01_tokens"


def notebook_of(example: str, tmp: Path) -> dict:
    """The example class's submission ``example`` as a JSON dict."""
    student = next(s for s in load_students(CHAPTER) if s.student_id == example)
    folder = build_submission(student, CHAPTER, tmp / "built")
    return json.loads((folder / f"{CHAPTER}.ipynb").read_text())


def cell_index(notebook: dict, grade_id: str) -> int:
    return next(i for i, c in enumerate(notebook["cells"]) if c["metadata"].get("nbgrader", {}).get("grade_id") == grade_id)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("messy")
    inbox = tmp / "lms-download"
    inbox.mkdir()
    correct, untouched = notebook_of("correct", tmp), notebook_of("untouched", tmp)

    def hand_in(name: str, notebook: dict | str, age: float = 0.0) -> None:
        path = inbox / name
        path.write_text(notebook if isinstance(notebook, str) else json.dumps(notebook))
        os.utime(path, (time.time() - age, time.time() - age))

    hand_in("alice_01_tokens_final.ipynb", correct)
    hand_in("bob_attempt1.ipynb", untouched, age=3600)
    hand_in("bob_attempt2.ipynb", correct)
    hand_in("carol_01_tokens.ipynb", "")
    hand_in("dave_01_tokens.ipynb", '{"cells": [')
    erin = json.loads(json.dumps(correct))
    del erin["cells"][cell_index(erin, "test_onehot_awesome")]
    hand_in("erin_01_tokens.ipynb", erin)
    frank = json.loads(json.dumps(correct))
    test_cell = frank["cells"].pop(cell_index(frank, "test_embed_table_f2"))
    frank["cells"].insert(2, test_cell)  # a test moved above the answers it needs
    hand_in("frank_01_tokens.ipynb", frank)
    grace = json.loads(json.dumps(untouched))
    for gid in ("test_onehot_awesome", "test_onehot_batched"):
        grace["cells"][cell_index(grace, gid)]["source"] = "print('all tests passed')"
    hand_in("grace_01_tokens.ipynb", grace)
    hand_in("heidi_01_tokens.ipynb", nbformat.writes(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1")])))
    judy = json.loads(json.dumps(correct))
    judy["cells"][cell_index(judy, "onehot")]["source"] = "def onehot(ids, V):\n    while True:\n        pass"
    hand_in("judy_01_tokens.ipynb", judy)

    workdir = tmp / "classwork"
    outcomes = grade(CHAPTER, inbox, workdir, jobs=2, limits=Limits(cell_s=10), progress=False)
    return {o.submission.student: o for o in outcomes}, workdir, inbox


EXPECTED = {  # student: (status, autograded points, words that must appear in the notes)
    "alice": ("graded", 20, []),
    "bob": ("graded", 20, ["2 notebooks handed in", "bob_attempt2.ipynb"]),
    "carol": ("failed", 0, ["empty file"]),
    "dave": ("failed", 0, ["not a valid notebook"]),
    "erin": ("graded", 20, ["restored deleted", "test_onehot_awesome"]),
    "frank": ("graded", 20, ["out of order"]),
    "grace": ("graded", 0, ["differ from the current release", "test_onehot_awesome, test_onehot_batched"]),
    "heidi": ("failed", 0, ["not a 01_tokens notebook"]),
    "judy": ("graded", 17, []),
}


@pytest.mark.parametrize("student", sorted(EXPECTED))
def test_every_student_gets_the_grade_and_the_note_they_deserve(graded, student):
    outcomes, _, _ = graded
    status, points, words = EXPECTED[student]
    outcome = outcomes[student]
    notes = " ".join(([outcome.submission.fatal] if outcome.submission.fatal else []) + outcome.submission.notes)
    assert (outcome.status, outcome.score) == (status, points), f"{student}: {outcome.status} {outcome.score} ({notes})"
    for word in words:
        assert word in notes, f"{student}: the notes should say {word!r}: {notes!r}"


def test_every_student_has_a_row_in_the_grades_csv(graded):
    _, workdir, _ = graded
    with (workdir / "grades.csv").open() as handle:
        rows = {row["student_id"]: float(row["raw_score"]) for row in csv.DictReader(handle)}
    assert rows == {student: float(points) for student, (_, points, _) in EXPECTED.items()}


def test_every_student_has_a_feedback_page_and_failures_say_why(graded):
    outcomes, workdir, _ = graded
    for student, outcome in outcomes.items():
        page = workdir / "feedback" / student / CHAPTER / f"{CHAPTER}.html"
        assert page.is_file(), f"no feedback for {student}"
        if outcome.status == "failed":
            assert "could not be graded" in page.read_text() and "Score: 0" in page.read_text()


def test_an_infinite_loop_is_stopped_by_the_cell_time_limit(graded):
    _, workdir, _ = graded
    page = (workdir / "feedback" / "judy" / CHAPTER / f"{CHAPTER}.html").read_text()
    assert "CellTimeoutError" in page or "Timeout" in page


def test_the_summary_counts_graded_failed_and_flagged(graded):
    outcomes, _, _ = graded
    text = summary(list(outcomes.values()))
    assert "6 graded, 0 unchanged since last time, 3 failed, 7 flagged" in text


def test_a_second_run_resumes_and_regrades_only_what_changed(graded):
    _, workdir, inbox = graded
    (inbox / "grace_01_tokens.ipynb").write_text((inbox / "alice_01_tokens_final.ipynb").read_text())
    outcomes = {o.submission.student: o for o in grade(CHAPTER, inbox, workdir, jobs=2, progress=False)}
    assert outcomes["grace"].status == "graded" and outcomes["grace"].score == 20
    assert all(o.status == "skipped" for s, o in outcomes.items() if s not in {"grace", "carol", "dave", "heidi"})
    assert outcomes["alice"].score == 20 and outcomes["judy"].score == 17


def test_a_notebook_over_the_time_limit_scores_zero_and_says_so(tmp_path):
    inbox = tmp_path / "inbox"
    (inbox / "zoe" / CHAPTER).mkdir(parents=True)
    (inbox / "zoe" / CHAPTER / f"{CHAPTER}.ipynb").write_text(json.dumps(notebook_of("correct", tmp_path)))
    (inbox / "zoe" / CHAPTER / f"{CHAPTER}.ipynb").rename(inbox / "zoe" / CHAPTER / "my work.ipynb")
    [outcome] = grade(CHAPTER, inbox, tmp_path / "work", limits=Limits(notebook_s=2), progress=False)
    assert outcome.submission.notes == [f"renamed my work.ipynb to {CHAPTER}.ipynb"]
    assert (outcome.status, outcome.score) == ("failed", 0)
    assert "longer than the time limit of 2 s" in outcome.submission.fatal
    page = tmp_path / "work" / "feedback" / "zoe" / CHAPTER / f"{CHAPTER}.html"
    assert "time limit" in page.read_text()


def test_a_failed_resubmission_does_not_keep_the_points_of_an_earlier_one(tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    correct = notebook_of("correct", tmp_path)
    (inbox / "yann_01_tokens.ipynb").write_text(json.dumps(correct))
    [first] = grade(CHAPTER, inbox, tmp_path / "work", progress=False)
    assert (first.status, first.score) == ("graded", 20)
    dying = json.loads(json.dumps(correct))  # the kernel dies half-way: nbgrader cannot finish
    dying["cells"][cell_index(dying, "embed")]["source"] = ("sys_ = getattr(torch, 'sy' + 's')\n"
                                                            "getattr(getattr(sys_, 'mod' + 'ules')['o' + 's'], '_ex' + 'it')(0)")
    (inbox / "yann_01_tokens.ipynb").write_text(json.dumps(dying))
    [second] = grade(CHAPTER, inbox, tmp_path / "work", progress=False)
    assert second.status == "failed" and "kernel died" in second.submission.fatal
    assert second.score == 0
