"""The grading command on a messy, LMS-style flat folder: every student gets a grade and a reason.

Renamed files, duplicate hand-ins, empty files, invalid JSON, a notebook of another kind, deleted
and reordered cells, an edited test cell and an infinite loop: none may crash the command, change
another student's grade, or cost a student points their answers did not lose.
"""
import csv
import html
import json
import os
import time
from pathlib import Path

import nbformat
import pytest

from grading.instructor.example_class import build_submission, load_students
from grading.instructor.grade import Limits, grade, main, summary
from grading.instructor.gradebook import database
from tests.autograder.instructor.intake.hand_ins import zipped

CHAPTER = "01_tokens"


def notebook_of(example: str, tmp: Path) -> dict:
    """The example class's submission ``example`` as a JSON dict."""
    student = next(s for s in load_students(CHAPTER) if s.student_id == example)
    folder = build_submission(student, CHAPTER, tmp / "built")
    return json.loads((folder / f"{CHAPTER}.ipynb").read_text())


def cell_index(notebook: dict, grade_id: str) -> int:
    return next(i for i, c in enumerate(notebook["cells"]) if c["metadata"].get("nbgrader", {}).get("grade_id") == grade_id)


@pytest.fixture(scope="module")
def graded(tmp_path_factory, grading_workers):
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
    # judy's endless loop costs 4 cell limits (two test cells, each run twice); honest cells need well under 1 s
    outcomes = grade(CHAPTER, inbox, workdir, limits=Limits(cell_s=3), progress=False, workers=grading_workers)
    return {o.submission.student: o for o in outcomes}, workdir, inbox, grading_workers


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
    outcomes, *_ = graded
    status, points, words = EXPECTED[student]
    outcome = outcomes[student]
    notes = " ".join(([outcome.submission.fatal] if outcome.submission.fatal else []) + outcome.submission.notes)
    assert (outcome.status, outcome.score) == (status, points), f"{student}: {outcome.status} {outcome.score} ({notes})"
    for word in words:
        assert word in notes, f"{student}: the notes should say {word!r}: {notes!r}"


def test_every_student_has_a_row_in_the_grades_csv(graded):
    _, workdir, *_ = graded
    rows = {student: float(row["autograded_score"]) for student, row in csv_rows(workdir, CHAPTER).items()}
    assert rows == {student: float(points) for student, (_, points, _) in EXPECTED.items()}


def test_every_student_has_a_feedback_page_and_failures_say_why(graded):
    outcomes, workdir, *_ = graded
    for student, outcome in outcomes.items():
        page = workdir / "feedback" / student / CHAPTER / f"{CHAPTER}.html"
        assert page.is_file(), f"no feedback for {student}"
        if outcome.status == "failed":
            assert "could not be graded" in page.read_text() and "Score: 0" in page.read_text()


def test_an_infinite_loop_is_stopped_by_the_cell_time_limit(graded):
    _, workdir, *_ = graded
    page = (workdir / "feedback" / "judy" / CHAPTER / f"{CHAPTER}.html").read_text()
    assert "CellTimeoutError" in page or "Timeout" in page


def test_the_summary_counts_graded_failed_and_flagged(graded):
    outcomes, *_ = graded
    text = summary(list(outcomes.values()))
    assert "6 graded, 0 unchanged since last time, 3 failed, 7 flagged" in text


def test_a_second_run_resumes_and_regrades_only_what_changed(graded):
    _, workdir, inbox, workers = graded
    (inbox / "grace_01_tokens.ipynb").write_text((inbox / "alice_01_tokens_final.ipynb").read_text())
    outcomes = {o.submission.student: o for o in grade(CHAPTER, inbox, workdir, progress=False, workers=workers)}
    assert outcomes["grace"].status == "graded" and outcomes["grace"].score == 20
    assert all(o.status == "skipped" for s, o in outcomes.items() if s not in {"grace", "carol", "dave", "heidi"})
    assert outcomes["alice"].score == 20 and outcomes["judy"].score == 17


def test_each_failure_reason_is_said_once_in_the_summary(graded):
    outcomes, *_ = graded
    line = next(line for line in summary(list(outcomes.values())).splitlines() if line.startswith("carol "))
    assert line.count("empty file") == 1, line


def test_a_deleted_feedback_page_is_written_again_by_the_next_run(graded):
    _, workdir, inbox, workers = graded
    page = workdir / "feedback" / "alice" / CHAPTER / f"{CHAPTER}.html"
    page.unlink()
    outcomes = {o.submission.student: o for o in grade(CHAPTER, inbox, workdir, progress=False, workers=workers)}
    assert outcomes["alice"].status == "skipped" and page.is_file()


def test_a_notebook_over_the_time_limit_scores_zero_and_says_so(tmp_path, grading_workers):
    # the checker does not cut loading short: the grading process is killed 1 s past the notebook's 2 s
    inbox = tmp_path / "inbox"
    (inbox / "zoe" / CHAPTER).mkdir(parents=True)
    slow = notebook_of("correct", tmp_path)  # its answers take 5 s to load, whatever the workers had started
    slow["cells"][cell_index(slow, "onehot")]["source"] = "import time\ntime.sleep(5)\n" + "".join(
        slow["cells"][cell_index(slow, "onehot")]["source"])
    (inbox / "zoe" / CHAPTER / f"{CHAPTER}.ipynb").write_text(json.dumps(slow))
    (inbox / "zoe" / CHAPTER / f"{CHAPTER}.ipynb").rename(inbox / "zoe" / CHAPTER / "my work.ipynb")
    [outcome] = grade(CHAPTER, inbox, tmp_path / "work", limits=Limits(notebook_s=2, recording_s=1), progress=False,
                      workers=grading_workers)
    assert outcome.submission.notes == [f"renamed my work.ipynb to {CHAPTER}.ipynb"]
    assert (outcome.status, outcome.score) == ("failed", 0)
    assert "longer than the time limit of 2 s" in outcome.submission.fatal
    page = tmp_path / "work" / "feedback" / "zoe" / CHAPTER / f"{CHAPTER}.html"
    assert "time limit" in page.read_text()


# The notebook's time limit in the hanging-function test: what it proves is the same at any limit, and the work it
# bounds (the answers' first loading, PyTorch's import included when the worker is fresh, and seven tests each well
# under 1 s) took 18 s at most on the 2-core machine shared by a dozen busy processes (load 9-11), under 5 s on a quiet one
HANG_LIMIT_S = 30


def test_one_hanging_function_costs_only_the_tests_not_checked_before_the_notebooks_time_limit(tmp_path,
                                                                                                grading_workers):
    # onehot blocks (a sleep: no CPU time, so only a wall clock stops it); its test's own backstop, 4 x 60 + 30 s, is
    # far past the notebook's limit, which the seven tests before it do not come near
    inbox = tmp_path / "inbox"
    (inbox / "ivan" / CHAPTER).mkdir(parents=True)
    hung = notebook_of("correct", tmp_path)
    hung["cells"][cell_index(hung, "onehot")]["source"] = "import time\n\n\ndef onehot(ids, V):\n    time.sleep(10**6)\n"
    (inbox / "ivan" / CHAPTER / f"{CHAPTER}.ipynb").write_text(json.dumps(hung))
    [outcome] = grade(CHAPTER, inbox, tmp_path / "work", limits=Limits(notebook_s=HANG_LIMIT_S, cell_s=60),
                      progress=False, workers=grading_workers)
    graded = nbformat.read(tmp_path / "work" / "autograded" / "ivan" / CHAPTER / f"{CHAPTER}.ipynb", as_version=4)
    errors = {c.metadata["nbgrader"]["grade_id"]: [o.evalue for o in c.outputs if o.output_type == "error"]
              for c in graded.cells if c.cell_type == "code" and c.metadata.get("nbgrader", {}).get("grade")}
    not_checked = ["test_onehot_awesome", "test_onehot_batched", "test_embed_table_f2", "test_embed_onehot_grad"]
    assert [gid for gid, evalues in errors.items() if evalues] == not_checked, errors
    assert f"time limit of {HANG_LIMIT_S} s ran out while this test ran" in errors["test_onehot_awesome"][0]
    assert all(f"time limit of {HANG_LIMIT_S} s ran out before this test ran" in errors[gid][0]
               for gid in not_checked[1:])
    assert (outcome.status, outcome.score) == ("graded", 13)  # every point of the seven tests checked before
    assert outcome.submission.notes == [(f"the notebook's time limit of {HANG_LIMIT_S} s ran out: "
                                         f"{', '.join(not_checked)} not checked (0 points)")]


def test_a_failed_resubmission_does_not_keep_the_points_of_an_earlier_one(tmp_path, grading_workers):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    correct = notebook_of("correct", tmp_path)
    (inbox / "yann_01_tokens.ipynb").write_text(json.dumps(correct))
    [first] = grade(CHAPTER, inbox, tmp_path / "work", progress=False, workers=grading_workers)
    assert (first.status, first.score) == ("graded", 20)
    dying = json.loads(json.dumps(correct))  # an answer cell stops Python: no answer of that cell is defined
    dying["cells"][cell_index(dying, "embed")]["source"] = ("sys_ = getattr(torch, 'sy' + 's')\n"
                                                            "getattr(getattr(sys_, 'mod' + 'ules')['o' + 's'], '_ex' + 'it')(0)")
    (inbox / "yann_01_tokens.ipynb").write_text(json.dumps(dying))
    [second] = grade(CHAPTER, inbox, tmp_path / "work", progress=False, workers=grading_workers)
    assert second.status == "graded" and "embed did not run: the cell stopped Python" in " ".join(second.submission.notes)
    assert second.score < first.score and second.score == 20 - 4  # embed's tests (4 points) no longer count


# Intake: every shape of hand-in gets a row and a feedback page, repairs earn what the clean notebook
# earns, the input is never written, and nbgrader's late penalty applies to the times kept.
POOLING = "02_pooling"


def pooling_notebook(example: str, tmp: Path) -> str:
    """The example class's chapter 02 submission ``example``, as text."""
    student = next(s for s in load_students(POOLING) if s.student_id == example)
    return (build_submission(student, POOLING, tmp / "built") / f"{POOLING}.ipynb").read_text()


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else b"/") for p in sorted(folder.rglob("*"))}


def csv_rows(workdir: Path, chapter: str = POOLING) -> dict[str, dict]:
    with (workdir / chapter / "grades.csv").open() as handle:
        return {row["student_id"]: row for row in csv.DictReader(handle)}


def feedback_page(workdir: Path, student: str, chapter: str = POOLING) -> str:
    return (workdir / "feedback" / student / chapter / f"{chapter}.html").read_text()


def without_nbgrader_metadata(text: str) -> str:
    data = json.loads(text)
    for cell in data["cells"]:
        cell["metadata"].pop("nbgrader", None)
    return json.dumps(data)


REPAIRED = {  # student: (file name, a word of the note its repair must get)
    "utf16": ("utf16_02_pooling.ipynb", "UTF-16"),
    "bom": ("bom_02_pooling.ipynb", "byte-order mark"),
    "cleared": ("cleared_02_pooling.ipynb", "nbgrader's metadata was missing"),
    "nometa": ("nometa_02_pooling.ipynb", "the notebook's metadata"),
    "upper": ("upper_02_pooling.IPYNB", "despite its file name extension"),
    "folder": ("folder/sub/my work.ipynb", None),
    "zipped": ("zipped_02_pooling.zip", None),
}
REFUSED = {  # student: words of the reason on the feedback page
    "empty": "empty_02_pooling.ipynb is an empty file",
    "config": "config_02_pooling.json is JSON but not a Jupyter notebook",
    "hollow": "the folder hollow is empty",
    "Alice": "Alice Jones_02_pooling.ipynb",  # two people behind one id: both files named
}


@pytest.fixture(scope="module")
def intake_graded(tmp_path_factory, grading_workers):
    tmp = tmp_path_factory.mktemp("intake")
    inbox = tmp / "inbox"
    text = pooling_notebook("wrong-axis", tmp)  # some tests lost: a mix-up of cells would change the points
    data = json.loads(text)
    del data["metadata"]
    contents = {"control_02_pooling.ipynb": text, "utf16_02_pooling.ipynb": text.encode("utf-16"),
                "bom_02_pooling.ipynb": b"\xef\xbb\xbf" + text.encode(),
                "cleared_02_pooling.ipynb": without_nbgrader_metadata(text),
                "nometa_02_pooling.ipynb": json.dumps(data),
                "upper_02_pooling.IPYNB": text, "folder/sub/my work.ipynb": text,
                "zipped_02_pooling.zip": zipped({f"{POOLING}.ipynb": text}), "empty_02_pooling.ipynb": "",
                "config_02_pooling.json": '{"theme": "dark"}', "Alice Smith_02_pooling.ipynb": text,
                "Alice Jones_02_pooling.ipynb": text}
    for name, content in contents.items():
        (inbox / name).parent.mkdir(parents=True, exist_ok=True)
        (inbox / name).write_bytes(content if isinstance(content, bytes) else content.encode())
    (inbox / "hollow").mkdir()
    before = snapshot(inbox)
    outcomes = grade(POOLING, inbox, tmp / "work", limits=Limits(cell_s=60), progress=False, workers=grading_workers)
    return {o.submission.student: o for o in outcomes}, tmp / "work", snapshot(inbox) == before


def test_every_shape_of_hand_in_gets_a_row_and_a_feedback_page(intake_graded):
    outcomes, workdir, _ = intake_graded
    assert sorted(outcomes) == sorted(["control", *REPAIRED, *REFUSED])
    assert sorted(csv_rows(workdir)) == sorted(outcomes)
    for student in outcomes:
        assert feedback_page(workdir, student)


@pytest.mark.parametrize("student", sorted(REPAIRED))
def test_a_repaired_hand_in_earns_the_points_of_the_clean_one(intake_graded, student):
    outcomes, workdir, _ = intake_graded
    control, outcome = outcomes["control"], outcomes[student]
    assert control.status == "graded" and 0 < control.score < 20  # wrong-axis loses some tests
    assert (outcome.status, outcome.score) == ("graded", control.score), outcome.submission.fatal
    assert float(csv_rows(workdir)[student]["raw_score"]) == control.score
    word = REPAIRED[student][1]
    assert word is None or any(word in note for note in outcome.submission.notes), outcome.submission.notes


@pytest.mark.parametrize("student", sorted(REFUSED))
def test_a_hand_in_that_cannot_be_graded_scores_zero_and_its_page_says_why(intake_graded, student):
    outcomes, workdir, _ = intake_graded
    assert (outcomes[student].status, outcomes[student].score) == ("failed", 0)
    assert float(csv_rows(workdir)[student]["raw_score"]) == 0
    page = html.unescape(feedback_page(workdir, student))
    assert "could not be graded" in page and REFUSED[student] in page


def test_grading_leaves_the_input_byte_identical(intake_graded):
    _, _, unchanged = intake_graded
    assert unchanged


def test_nbgrader_collects_folder_is_graded_in_place_with_late_penalties(tmp_path):
    classwork = tmp_path / "classwork"
    text = pooling_notebook("wrong-axis", tmp_path)
    late = classwork / "submitted" / "late" / POOLING
    late.mkdir(parents=True)
    (late / f"{POOLING}.ipynb").write_text(text)
    (late / "timestamp.txt").write_text("2026-10-07 11:59:00.000000 UTC")  # 1.5 days late: 2 days begun
    (classwork / "submitted" / "early").mkdir()
    (classwork / "submitted" / "early" / f"{POOLING}.ipynb").write_text(text)  # misplaced, no time: not late
    (classwork / "submitted" / "other" / CHAPTER).mkdir(parents=True)  # has handed in another chapter only
    (classwork / "submitted" / "other" / CHAPTER / f"{CHAPTER}.ipynb").write_text(json.dumps(notebook_of("correct",
                                                                                                       tmp_path)))
    before = snapshot(classwork / "submitted")
    assert main([POOLING, str(classwork / "submitted"), "--workdir", str(classwork), "--due", "2026-10-05T23:59+00:00",
                 "--late-penalty", "10%/day", "--cell-time-limit", "60"]) == 0
    assert snapshot(classwork / "submitted") == before
    early, late = ({key: float(row[key]) for key in ("raw_score", "late_submission_penalty", "score", "max_score")}
                   for row in (csv_rows(classwork)["early"], csv_rows(classwork)["late"]))
    assert early["raw_score"] == late["raw_score"] > 0.2 * late["max_score"]
    assert (early["late_submission_penalty"], early["score"]) == (0, early["raw_score"])
    assert late["late_submission_penalty"] == 0.2 * late["max_score"]  # 10% for each of the 2 days begun
    assert late["score"] == late["raw_score"] - late["late_submission_penalty"]
    assert "other" not in csv_rows(classwork)  # nor in the gradebook: nbgrader never heard of other


def test_the_command_refuses_a_work_folder_inside_the_input(tmp_path, capsys):
    (tmp_path / "inbox").mkdir()
    with pytest.raises(SystemExit):
        main([POOLING, str(tmp_path / "inbox"), "--workdir", str(tmp_path / "inbox" / "work")])
    assert "never writes into the submissions it reads" in capsys.readouterr().err


def test_an_empty_zip_is_refused_saying_so_and_a_roster_may_start_a_new_work_folder(tmp_path, capsys):
    (tmp_path / "empty.zip").write_bytes(zipped({}))
    (tmp_path / "export.csv").write_text('Student,ID,SIS User ID,SIS Login ID,Section,01_tokens (31416)\n'
                                         '    Points Possible,,,,,25.00\n"Gödel, Kurt",4711,S001,kgodel,A,\n')
    workdir = tmp_path / "new" / "classwork"  # nothing there yet
    assert main([CHAPTER, str(tmp_path / "empty.zip"), "--workdir", str(workdir), "--roster",
                 str(tmp_path / "export.csv")]) == 1
    said = capsys.readouterr().err
    assert "nothing to grade" in said and "empty.zip holds no file or folder" in said, said
    assert "Traceback" not in said
    with database.opened(database.url(workdir)) as gradebook:
        assert [(s.id, s.lms_user_id) for s in gradebook.students] == [("gödelkurt", "4711")]


def test_an_unreachable_gradebook_is_said_in_one_line_and_never_saved_as_the_classs(tmp_path, capsys):
    from tests.services import free_port

    (tmp_path / "inbox").mkdir()
    workdir = tmp_path / "classwork"
    unreachable = f"postgresql://grader@127.0.0.1:{free_port()}/course"  # nothing listens there
    with pytest.raises(SystemExit):
        main([CHAPTER, str(tmp_path / "inbox"), "--workdir", str(workdir), "--gradebook", unreachable])
    said = capsys.readouterr().err.strip().splitlines()
    assert f"error: the gradebook {unreachable} cannot be opened: connection failed" in said[-1], \
        said
    assert not any("nbgrader db upgrade" in line or "Traceback" in line for line in said), said
    assert not (workdir / database.FILE).exists(), "the unreachable URL was saved as the class's gradebook"
