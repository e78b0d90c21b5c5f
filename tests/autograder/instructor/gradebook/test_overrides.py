"""A regrade keeps what assistants decided in formgrader: a test cell's score set by hand, and an unflagging.

One real round trip on chapter 01, on SQLite and on PostgreSQL: alice hands in an answer that breaks ties in the
wrong order (two test cells fail), bob one whose screened answer is flagged. An assistant grades both students'
written answers, overrides one of alice's failed test cells with full marks (formgrader's manual score) and
clears bob's flag. ``--force`` then grades the class again from the same hand-ins: alice's override stands and
her status is ``graded`` (nothing she wrote changed), both stay in the LMS files, and bob stays unflagged. Then
alice hands in different code: the override is kept and counted, and marked for review, with a status that says
so, and the command names her as left out of the LMS files until it is reviewed.
"""
import csv
import io
import json
from contextlib import redirect_stdout
from pathlib import Path

import pytest
from grading.instructor.example_class import build_submission, load_students
from grading.instructor.grade import main
from grading.instructor.gradebook import database, roster

from tests.autograder.instructor.gradebook.test_regrade import WRITTEN, cell, hand_in

CHAPTER = "01_tokens"
OVERRIDDEN = "test_build_vocab_ties_specials"  # one of the cells the ties-by-order answer fails


def example(name: str, tmp: Path) -> dict:
    student = next(s for s in load_students(CHAPTER) if s.student_id == name)
    return json.loads((build_submission(student, CHAPTER, tmp / "built" / name) / f"{CHAPTER}.ipynb").read_text())


def assistant(url: str) -> None:
    """What formgrader saves: written answers graded, alice's failed test cell overridden, bob's flag cleared."""
    with database.opened(url) as gradebook:
        for student in ("alice", "bob"):
            for grade_id in WRITTEN:
                written = gradebook.find_grade(grade_id, CHAPTER, CHAPTER, student)
                written.manual_score, written.needs_manual_grade = written.max_score, False
        test = gradebook.find_grade(OVERRIDDEN, CHAPTER, CHAPTER, "alice")
        assert test.auto_score == 0, "the ties-by-order answer no longer fails the cell this test overrides"
        test.manual_score = test.max_score
        gradebook.find_submission(CHAPTER, "bob").notebooks[0].flagged = False
        gradebook.db.commit()


def outputs(workdir: Path, url: str, argv: list[str]) -> dict:
    printed = io.StringIO()
    with redirect_stdout(printed):
        assert main(argv) == 0
    folder = workdir / CHAPTER
    with (folder / "grades.csv").open() as handle:
        grades = {row["student_id"]: row for row in csv.DictReader(handle)}
    with (folder / "canvas.csv").open() as handle:
        canvas = {row["ID"]: row[CHAPTER] for row in csv.DictReader(handle) if row["ID"]}
    with (folder / "moodle.csv").open() as handle:
        moodle = {row["Email address"]: row[CHAPTER] for row in csv.DictReader(handle)}
    with database.opened(url) as gradebook:
        flagged = {s.student_id: s.notebooks[0].flagged for s in gradebook.find_assignment(CHAPTER).submissions}
        test = gradebook.find_grade(OVERRIDDEN, CHAPTER, CHAPTER, "alice")
        override = (test.manual_score, test.needs_manual_grade)
    return {"grades": grades, "canvas": canvas, "moodle": moodle, "flagged": flagged, "override": override,
            "printed": printed.getvalue()}


@pytest.fixture
def regraded(tmp_path, gradebook_url, grading_workers, monkeypatch):
    inbox, workdir = tmp_path / "inbox", tmp_path / "classwork"
    alice = example("ties-by-order", tmp_path)
    bob = example("untouched", tmp_path)
    cell(bob, "onehot")["source"] = "import os\n" + "".join(cell(bob, "onehot")["source"])  # screened: flagged
    hand_in(inbox, "alice", alice)
    hand_in(inbox, "bob", bob)
    database.choose(workdir, gradebook_url)
    roster.record(gradebook_url, [roster.Person(s, email=f"{s}@example.org", lms_user_id=str(n))
                                  for n, s in enumerate(("alice", "bob"), start=101)])
    # the command's own workers run in this process's grading processes, shared by the module's tests
    monkeypatch.setattr("grading.instructor.grade.GradingWorkers", lambda jobs: _Borrowed(grading_workers))
    argv = [CHAPTER, str(inbox), "--workdir", str(workdir), "--jobs", "1"]
    seen = {"first": outputs(workdir, gradebook_url, argv)}
    assistant(gradebook_url)
    seen["forced"] = outputs(workdir, gradebook_url, [*argv, "--force"])
    changed = json.loads(json.dumps(alice))
    cell(changed, "build_vocab")["source"] = "".join(cell(changed, "build_vocab")["source"]) + "\n# tidied up\n"
    hand_in(inbox, "alice", changed)
    seen["changed"] = outputs(workdir, gradebook_url, argv)
    return seen


class _Borrowed:
    """The test's long-lived grading processes, lent to the command without being stopped at its end."""

    def __init__(self, workers):
        self.workers = workers

    def __enter__(self):
        return self.workers

    def __exit__(self, *exc):
        return None


def test_an_override_of_a_test_cell_and_an_unflagging_survive_a_regrade(regraded):
    first, forced = regraded["first"], regraded["forced"]
    assert first["grades"]["alice"]["autograded_score"] == "16.0" and first["flagged"]["bob"]
    alice = forced["grades"]["alice"]
    assert (alice["status"], alice["autograded_score"], alice["written_score"], alice["to_review_points"]) == (
        "graded", "18.0", "5.0", "0.0"), alice
    assert forced["override"] == (2.0, False)
    assert forced["canvas"] == {"101": "23.0", "102": "5.0"}  # bob: the untouched notebook, written answers graded
    assert forced["moodle"] == {"alice@example.org": "23.0", "bob@example.org": "5.0"}
    assert forced["flagged"] == {"alice": False, "bob": False}
    assert forced["grades"]["bob"]["flagged"] == "" and "tampering suspected" in forced["grades"]["bob"]["flags"]


def test_an_override_whose_code_changed_is_kept_for_review_and_the_command_says_who_the_lms_files_leave_out(
        regraded):
    changed = regraded["changed"]
    alice = changed["grades"]["alice"]
    assert alice["status"] == "to review: answers changed since a test cell's score was set by hand", alice
    assert (alice["autograded_score"], alice["to_review_points"], alice["score"]) == ("18.0", "2.0", "23.0")
    assert changed["override"] == (2.0, True)
    assert "101" not in changed["canvas"] and "alice@example.org" not in changed["moodle"]
    assert any(line.startswith("note: canvas.csv and moodle.csv leave out 1 student(s) whose score is not final")
               and "alice" in line for line in changed["printed"].splitlines()), changed["printed"]
