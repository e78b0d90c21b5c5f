"""Grades per chapter (grading.instructor.outputs.export), flags kept (grading.instructor.gradebook.flags), pending written
answers said everywhere, and a run whose setup fails stopped instead of zeroing the class.

One real round trip on chapter 01 with a class of four: alice hands in the solution a day and a half
late (her written answers await manual grading), bob the untouched notebook with a screened answer
(flagged), carol an empty file, and dave, on the roster, nothing. The instructor then grades alice's
written answers and unflags bob in formgrader, and carol hands in again: the second run updates
what changed and keeps what the instructor decided. The other tests are fast unit tests.
"""
import csv
import io
import json
import types
from contextlib import redirect_stdout
from datetime import datetime
from pathlib import Path

import pytest
import torch
from nbformat.v4 import new_code_cell, new_notebook
from nbgrader.api import Gradebook

from grading.instructor.outputs import export
from grading.instructor.verdicts.answers import Answers, SetupFailed
from grading.instructor.verdicts.checker import PRIVATE_PACKAGES, Checker, answer_program
from grading.instructor.course import REPO, GradingError, nbgrader, workdir_options
from grading.instructor.example_class import build_submission, load_students
from grading.instructor.outputs.feedback import AWAITING_TAG
from grading.instructor.grade import Limits, Outcome, _autograde, grade, main, summary
from grading.instructor.intake.submissions import Submission
from grading.student import checks

CHAPTER = "01_tokens"
LATE = "2026-10-07 11:59:00.000000 UTC"  # 36 h after the due date below: two days begun, 2 x 10% of 25 points


def hand_in(inbox: Path, student: str, text: str, timestamp: str | None = None) -> None:
    """A hand-in in nbgrader's layout, with nbgrader's timestamp.txt if ``timestamp``."""
    folder = inbox / student / CHAPTER
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{CHAPTER}.ipynb").write_text(text)
    if timestamp:
        (folder / "timestamp.txt").write_text(timestamp)


def example(name: str, tmp: Path) -> dict:
    student = next(s for s in load_students(CHAPTER) if s.student_id == name)
    return json.loads((build_submission(student, CHAPTER, tmp / "built") / f"{CHAPTER}.ipynb").read_text())


def read_csv(path: Path) -> dict[str, dict]:
    with path.open() as handle:
        return {row.get("student_id") or row.get("Email address") or row["Student"]: row for row in csv.DictReader(handle)}


def feedback(workdir: Path, student: str) -> str:
    return (workdir / "feedback" / student / CHAPTER / f"{CHAPTER}.html").read_text()


def flagged(gradebook: Gradebook) -> dict[str, bool]:
    """nbgrader's flag of each submission of the chapter (formgrader's *Flagged?*)."""
    return {s.student_id: s.notebooks[0].flagged for s in gradebook.find_assignment(CHAPTER).submissions}


def files(workdir: Path) -> dict:
    """The chapter's grades and Canvas file, and alice's feedback page, as they are now."""
    return {"grades": read_csv(workdir / CHAPTER / "grades.csv"), "canvas": read_csv(workdir / CHAPTER / "canvas.csv"),
            "alice": feedback(workdir, "alice")}


@pytest.fixture(scope="module")
def round_trip(tmp_path_factory, grading_workers):
    tmp = tmp_path_factory.mktemp("export")
    inbox, workdir = tmp / "inbox", tmp / "classwork"
    correct, untouched = example("correct", tmp), example("untouched", tmp)
    hand_in(inbox, "alice", json.dumps(correct), LATE)
    screened = json.loads(json.dumps(untouched))
    onehot = next(c for c in screened["cells"] if c["metadata"].get("nbgrader", {}).get("grade_id") == "onehot")
    onehot["source"] = "import os\n" + "".join(onehot["source"])
    hand_in(inbox, "bob", json.dumps(screened))
    hand_in(inbox, "carol", "")
    workdir.mkdir()
    nbgrader("db", "student", "add", "dave", "--first-name=Dave", "--last-name=Lee", "--email=dave@example.org",
             f"--db=sqlite:///{workdir / 'gradebook.db'}")
    for number, student in enumerate(("alice", "bob"), start=101):  # on the roster: e-mail and Canvas user id
        nbgrader("db", "student", "add", student, f"--email={student}@example.org", f"--lms-user-id={number}",
                 f"--db=sqlite:///{workdir / 'gradebook.db'}")

    # the instructor's setup cell cannot import matplotlib: the run stops, and nobody is given a score
    broken = tmp / "broken"
    (broken / "matplotlib").mkdir(parents=True)
    (broken / "matplotlib" / "__init__.py").write_text("raise ImportError('matplotlib is broken here')\n")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", str(broken))
        with pytest.raises(GradingError) as stopped:
            grade(CHAPTER, inbox, workdir, jobs=1, progress=False)
    aborted = {"error": str(stopped.value), "chapter_files": sorted(p.name for p in (workdir / CHAPTER).glob("*")),
               "feedback": sorted(p.name for p in (workdir / "feedback").glob("*"))}

    printed = io.StringIO()
    with redirect_stdout(printed):  # a low cell time limit must not time out the setup
        main([CHAPTER, str(inbox), "--workdir", str(workdir), "--due", "2026-10-05T23:59+00:00",
              "--late-penalty", "10%/day", "--cell-time-limit", "3"])
    first = {"printed": printed.getvalue(), **files(workdir), "moodle": read_csv(workdir / CHAPTER / "moodle.csv"),
             "bob": feedback(workdir, "bob"), "flags": json.loads((workdir / CHAPTER / "flags.json").read_text())}
    with Gradebook(f"sqlite:///{workdir / 'gradebook.db'}") as gradebook:
        first["flagged"] = flagged(gradebook)
        for notebook in gradebook.find_submission(CHAPTER, "alice").notebooks:  # formgrader: answers graded
            for written in (g for g in notebook.grades if g.needs_manual_grade):
                written.manual_score, written.needs_manual_grade = written.max_score, False
        gradebook.find_submission(CHAPTER, "bob").notebooks[0].flagged = False  # formgrader: bob cleared
        gradebook.db.commit()
    hand_in(inbox, "carol", json.dumps(untouched))

    outcomes = {o.submission.student: o for o in grade(CHAPTER, inbox, workdir, progress=False,
                                                       workers=grading_workers)}
    second = {**files(workdir), "outcomes": outcomes}
    with Gradebook(f"sqlite:///{workdir / 'gradebook.db'}") as gradebook:
        second["flagged"] = flagged(gradebook)
    return {"workdir": workdir, "aborted": aborted, "first": first, "second": second}


def test_a_failing_setup_stops_the_run_and_gives_nobody_a_score(round_trip):
    aborted = round_trip["aborted"]
    assert "setup failed" in aborted["error"] and "matplotlib is broken here" in aborted["error"]
    assert aborted["chapter_files"] == [] and aborted["feedback"] == []


def test_the_chapter_csv_has_a_row_and_a_status_for_every_student_of_the_class(round_trip):
    rows = round_trip["first"]["grades"]
    assert sorted(rows) == ["alice", "bob", "carol", "dave"]
    alice, bob, carol, dave = (rows[s] for s in ("alice", "bob", "carol", "dave"))
    assert alice["status"] == "awaiting manual grading, late by 36.0 h, penalty 5"
    assert (alice["autograded_score"], alice["written_score"]) == ("20.0", "0.0")
    assert alice["awaiting_manual_points"] == "5.0"
    assert (alice["raw_score"], alice["late_submission_penalty"], alice["score"]) == ("20.0", "5.0", "15.0")
    assert (bob["status"], bob["score"]) == ("graded", "0.0")
    assert carol["status"].startswith("failed: ") and "empty file" in carol["status"] and carol["score"] == "0.0"
    assert dave["status"] == "not handed in" and (dave["first_name"], dave["email"]) == ("Dave", "dave@example.org")
    assert all(dave[column] == "" for column in ("raw_score", "score", "autograded_score", "timestamp"))


def test_flags_are_kept_in_a_file_the_csv_and_nbgraders_flag(round_trip):
    first = round_trip["first"]
    assert any("tampering suspected in cell onehot" in flag for flag in first["flags"]["bob"]["flags"])
    assert "empty file" in first["flags"]["carol"]["failed"]
    assert first["flagged"] == {"alice": False, "bob": True, "carol": True}
    assert first["grades"]["bob"]["flagged"] == "yes" and "tampering suspected" in first["grades"]["bob"]["flags"]
    assert first["grades"]["alice"]["flagged"] == "" and first["grades"]["dave"]["flags"] == ""


def test_lms_files_hold_only_final_scores(round_trip):
    first, second = round_trip["first"], round_trip["second"]
    assert list(first["canvas"]["bob"]) == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", CHAPTER]
    assert list(first["moodle"]["bob@example.org"]) == ["First name", "Last name", "ID number", "Email address",
                                                        CHAPTER]
    # alice pending, dave absent, carol (failed, 0) not on the roster: the LMS could not match her
    assert sorted(first["canvas"]) == ["    Points Possible", "bob"] and list(first["moodle"]) == ["bob@example.org"]
    assert (first["canvas"]["bob"]["ID"], first["canvas"]["bob"][CHAPTER]) == ("102", "0.0")
    assert second["canvas"]["alice"][CHAPTER] == "20.0"  # 20 + 5 written - 5 late
    assert any(line.startswith("note: canvas.csv leaves out 1 student(s) without a Canvas user id or SIS id (carol)")
               for line in first["printed"].splitlines())


def test_pending_written_answers_are_said_on_the_feedback_page_and_in_the_summary(round_trip):
    first, second = round_trip["first"], round_trip["second"]
    assert AWAITING_TAG not in first["bob"]
    assert "5 points of written answers await grading" in first["alice"]
    assert "5 points of written answers await grading" not in second["alice"]
    alice = next(line for line in first["printed"].splitlines() if line.startswith("alice "))
    assert "15.0 / 25.0" in alice and "5 points of written answers awaiting manual grading" in alice
    assert "awaiting manual grading, late by 36.0 h, penalty 5;" in alice  # the CSV's status and score
    assert "1 awaiting manual grading" in first["printed"]
    assert "awaiting manual grading" not in summary(list(second["outcomes"].values())).splitlines()[1]


def test_the_command_says_which_course_and_work_folder_it_uses(round_trip):
    lines = round_trip["first"]["printed"].splitlines()
    assert lines[0] == f"course: {REPO} (its solutions/ and notebooks/)"
    assert lines[1] == f"work folder: {round_trip['workdir'].resolve()}"


def test_feedback_says_graded_and_loads_nothing_from_the_network(round_trip):
    page = round_trip["first"]["alice"]
    assert "more tests run when your notebook is graded" not in page and "passed" in page
    assert "cdnjs" not in page and "window.MathJax" in page


def test_a_regrade_updates_flags_and_keeps_the_instructors_decisions(round_trip):
    second = round_trip["second"]
    assert second["grades"]["alice"]["status"] == "graded, late by 36.0 h, penalty 5"
    assert second["grades"]["alice"]["written_score"] == "5.0"
    assert second["outcomes"]["carol"].status == "graded" and second["grades"]["carol"]["status"] == "graded"
    assert second["flagged"] == {"alice": False, "bob": False, "carol": False}  # carol's flag went with its reason
    assert "tampering suspected" in second["grades"]["bob"]["flags"]  # bob's reason stays; the unflag too


def test_plain_nbgrader_export_writes_the_chapter_files_not_a_root_grades_csv(round_trip):
    workdir, stray = round_trip["workdir"], REPO / "grades.csv"
    before = stray.stat().st_mtime_ns if stray.exists() else None
    (workdir / CHAPTER / "grades.csv").unlink()
    nbgrader("export", *workdir_options(workdir))  # from the repository root, with the course's configuration
    assert (stray.stat().st_mtime_ns if stray.exists() else None) == before
    assert read_csv(workdir / CHAPTER / "grades.csv") == round_trip["second"]["grades"]


def test_feedback_math_is_typeset_in_a_browser_without_network(round_trip, tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api")
    from tests.book.test_browser import CHROMIUM_FLAGS, chromium_path

    page_file = tmp_path / "alice.html"
    page_file.write_text(round_trip["first"]["alice"])
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        tab = browser.new_page()
        remote = []
        tab.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:")
                  else (remote.append(route.request.url), route.abort()))
        tab.goto(page_file.as_uri())
        tab.wait_for_selector("mjx-container", state="attached", timeout=30_000)
        typeset = tab.locator("mjx-container").count()
        browser.close()
    assert typeset > 10 and remote == []


# Fast tests of the pure parts.

def test_a_status_names_the_state_lateness_and_penalty():
    row = export.Row("s", None, None, None, 25.0, state=export.AWAITING, seconds_late=5400.0, penalty=0.0)
    assert row.status == "awaiting manual grading, late by 1.5 h"
    row.penalty = 2.5
    assert row.status == "awaiting manual grading, late by 1.5 h, penalty 2.5"
    assert export.Row("s", None, None, None, 25.0, state=export.FAILED, failure="no notebook").status == \
        "failed: no notebook"


def test_the_lms_files_leave_out_what_is_not_final(tmp_path):
    rows = [export.Row("al", "Smith", "Al", "al@x.org", 25.0, state=export.GRADED, raw=20.0, score=20.0,
                       lms={"lms_user_id": "123"}),
            export.Row("bo", None, None, None, 25.0, state=export.AWAITING, raw=20.0, score=20.0),
            export.Row("cy", None, None, None, 25.0)]
    export.write(tmp_path, CHAPTER, datetime(2026, 10, 5), rows, None)
    canvas, moodle = read_csv(tmp_path / "canvas.csv"), read_csv(tmp_path / "moodle.csv")
    assert list(canvas) == ["    Points Possible", "Smith, Al"]
    assert (canvas["Smith, Al"]["ID"], canvas["Smith, Al"][CHAPTER]) == ("123", "20.0")
    assert list(moodle) == ["al@x.org"] and moodle["al@x.org"][CHAPTER] == "20.0"
    grades = read_csv(tmp_path / "grades.csv")
    assert grades["cy"]["status"] == "not handed in" and grades["cy"]["score"] == ""


def test_the_export_plugin_refuses_a_file_name_for_its_folder():
    plugin = export.ChapterExport(to="grades.csv")
    with pytest.raises(ValueError, match="CsvExportPlugin"):
        plugin.export(None)


def test_the_summary_counts_pending_written_answers():
    row = export.Row("a", None, None, None, 25.0, state=export.AWAITING, raw=20.0, awaiting=5.0, penalty=0.0,
                     score=20.0)
    text = summary([Outcome(Submission("a", []), "graded", row)])
    assert "20.0 / 25.0" in text and "5 points of written answers awaiting manual grading" in text
    assert text.endswith("1 awaiting manual grading, 0 to review")


class _NoAnswers:
    callable, deadline = True, 0.0


def test_an_instructors_setup_cell_that_fails_in_the_checker_is_a_setup_failure(monkeypatch):
    monkeypatch.setattr(checks, "_stdout", checks._stdout)  # the checker takes the helpers' output
    cell = new_code_cell("import no_such_module_here", metadata={"nbgrader": {"grade_id": "setup", "locked": True}})
    with pytest.raises(SetupFailed, match="setup cell .* ModuleNotFoundError"):
        Checker(new_notebook(cells=[cell]), _NoAnswers(), cell_s=10, salt=0).prepare()


def test_a_setup_chunk_that_fails_in_the_answer_worker_is_a_setup_failure():
    chunks = [("setup", "import no_such_module_here", "locked"), ("f", "def f():\n    return 1\n", "answer")]
    with pytest.raises(SetupFailed, match="setup cell raised .*ModuleNotFoundError"):
        with Answers(chunks, {}, "seqmodels", PRIVATE_PACKAGES, load_timeout=60):
            pass
    with Answers(chunks[1:], {}, "seqmodels", PRIVATE_PACKAGES, load_timeout=60) as answers:  # an answer may fail
        assert answers.call("f", (), {}) == 1


def test_a_students_cell_cannot_make_the_setup_fail_the_setup_loads_first():
    setup = new_code_cell("import math", metadata={"nbgrader": {"grade_id": "setup", "locked": True}})
    answer = new_code_cell("def f():\n    return math.pi\n", metadata={"nbgrader": {"grade_id": "f", "solution": True}})
    spoiler = new_code_cell("class Spoiler:\n    import sys\n    sys.modules['math'] = None\n")  # before the setup
    chunks = answer_program(new_notebook(cells=[spoiler, setup, answer]), new_notebook(cells=[setup, answer]))
    assert [kind for _, _, kind in chunks] == ["locked", "given", "answer"]
    with Answers(chunks, {}, "seqmodels", PRIVATE_PACKAGES, load_timeout=60) as answers:
        assert answers.call("f", (), {}) == pytest.approx(3.14159, abs=1e-5)


def test_a_setup_failure_stops_grading_instead_of_recording_a_failure(tmp_path):
    def autograde(chapter, student, notebook, checker, options, timeout):  # as a worker reports a failed setup
        return False, f"[ERROR] RuntimeError: {checker['setup_failure_marker']} setup failed: the setup cell raised " \
                      "ImportError: no numpy"

    workers = types.SimpleNamespace(autograde=autograde)
    with pytest.raises(GradingError, match="setup failed: the setup cell raised ImportError"):
        _autograde(CHAPTER, "alice", tmp_path, Limits(), workers, salt=0)


def test_a_result_without_gradients_gets_a_short_message_without_paths(monkeypatch):
    monkeypatch.setattr(checks, "_stdout", checks._stdout)
    try:
        torch.ones(2).sum().backward()
    except RuntimeError as error:
        detached = error
    checker = Checker(new_notebook(), _NoAnswers(), cell_s=10, salt=0)
    for hidden in (False, True):
        verdict = checker._failure(detached, hidden, "")
        assert verdict.ename == "NoGradient" and ".backward()" in verdict.evalue and ".detach()" in verdict.evalue
        assert "/" not in verdict.evalue and len(verdict.evalue.splitlines()) == 1


def test_the_feedback_steps_take_the_html_exporters_configuration_without_a_warning(caplog):
    from nbconvert.exporters import HTMLExporter

    from grading.instructor.outputs.feedback import AwaitingManualGrades, HideHiddenTests

    exporter = HTMLExporter()  # configures display_data_priority for every step, as in generate_feedback
    with caplog.at_level("WARNING"):
        steps = [AwaitingManualGrades(parent=exporter), HideHiddenTests(parent=exporter)]
    assert all(step.enabled for step in steps)
    assert "not recognized" not in caplog.text


def test_the_summary_prints_the_csvs_status_and_score_after_the_penalty():
    row = export.Row("a", None, None, None, 25.0, state=export.GRADED, seconds_late=3600.0, raw=20.0, penalty=5.0,
                     score=15.0, written=5.0)
    line = summary([Outcome(Submission("a", []), "graded", row)]).splitlines()[1]
    assert "15.0 / 25.0  graded, late by 1.0 h, penalty 5" in line
