"""Nothing lost on a regrade (grading.instructor.gradebook.regrade), on a PostgreSQL gradebook.

One real round trip on chapter 01, its gradebook in PostgreSQL: alice and bob hand in the solution,
and an assistant grades their written answers by hand with a comment, as formgrader does. Then
every way a notebook is graded again: alice hands in again with a changed code comment, the class
is regraded with ``--force``, the due date moves (``--due`` with ``--force``), and alice's next
hand-in comes from a Canvas zip instead of nbgrader's folder. Her written answers are unchanged
each time: their grades and comments stand, and every output says graded. bob rewrites a written
answer: his grade and comment are kept and marked for review, until the assistant reviews it.
"""
import csv
import io
import json
import zipfile
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from grading.instructor.course import nbgrader, workdir_options
from grading.instructor.example_class import build_submission, load_students
from grading.instructor.grade import grade, main
from grading.instructor.gradebook import database, roster

CHAPTER = "01_tokens"
WRITTEN = ("written_cost_of_onehot", "written_vocabulary_design")  # 2 + 3 points graded by hand
COMMENT = "Clear and right."
NOT_FINAL = "Not final yet"  # the feedback page's note on written answers awaiting grading or review
HANDED_IN = "2026-10-06 11:59:00.000000 UTC"  # 12 h after the due date given later: one day begun, 10% of 25


def notebook(tmp: Path) -> dict:
    student = next(s for s in load_students(CHAPTER) if s.student_id == "correct")
    return json.loads((build_submission(student, CHAPTER, tmp / "built") / f"{CHAPTER}.ipynb").read_text())


def cell(nb: dict, grade_id: str) -> dict:
    return next(c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("grade_id") == grade_id)


def hand_in(inbox: Path, student: str, nb: dict) -> None:
    folder = inbox / student / CHAPTER
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{CHAPTER}.ipynb").write_text(json.dumps(nb))
    (folder / "timestamp.txt").write_text(HANDED_IN)


def grade_by_hand(url: str, student: str) -> None:
    """What formgrader does when an assistant gives full marks and a comment to the written answers."""
    with database.opened(url) as gradebook:
        for grade_id in WRITTEN:
            written = gradebook.find_grade(grade_id, CHAPTER, CHAPTER, student)
            written.manual_score, written.needs_manual_grade = written.max_score, False
            gradebook.find_comment(grade_id, CHAPTER, CHAPTER, student).manual_comment = COMMENT
        gradebook.db.commit()


def state(workdir: Path, url: str) -> dict:
    """The written answers' grades in the gradebook, the chapter's files and the feedback pages, now."""
    with database.opened(url) as gradebook:
        written = {student: [(g.manual_score, g.needs_manual_grade,
                              gradebook.find_comment(g.name, CHAPTER, CHAPTER, student).manual_comment)
                             for g in (gradebook.find_grade(i, CHAPTER, CHAPTER, student) for i in WRITTEN)]
                   for student in ("alice", "bob")}
    with (workdir / CHAPTER / "grades.csv").open() as handle:
        rows = {row["student_id"]: row for row in csv.DictReader(handle)}
    with (workdir / CHAPTER / "canvas.csv").open() as handle:
        canvas = {row["Student"]: row["ID"] for row in csv.DictReader(handle)}
    with (workdir / CHAPTER / "moodle.csv").open() as handle:
        moodle = [row["Email address"] for row in csv.DictReader(handle)]
    pages = {student: (workdir / "feedback" / student / CHAPTER / f"{CHAPTER}.html").read_text()
             for student in ("alice", "bob")}
    return {"written": written, "rows": rows, "canvas": canvas, "moodle": moodle, "pages": pages}


@pytest.fixture(scope="module")
def course_database(postgresql_server):
    """A fresh PostgreSQL database for the module's round trip (tests.services makes one per test)."""
    import psycopg

    port, admin_url = postgresql_server
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute('CREATE DATABASE "regrade"')
    yield f"postgresql://postgres@127.0.0.1:{port}/regrade"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute('DROP DATABASE IF EXISTS "regrade" WITH (FORCE)')


@pytest.fixture(scope="module")
def regrades(tmp_path_factory, course_database, grading_workers):
    tmp = tmp_path_factory.mktemp("regrade")
    url = course_database
    inbox, workdir = tmp / "inbox", tmp / "classwork"
    solution = notebook(tmp)
    for student in ("alice", "bob"):
        hand_in(inbox, student, solution)
    database.choose(workdir, url)
    roster.record(url, [roster.Person(student, email=f"{student}@example.org") for student in ("alice", "bob")])
    seen = {}

    def run(folder: Path, **options) -> None:
        grade(CHAPTER, folder, workdir, progress=False, workers=grading_workers, **options)

    run(inbox)
    seen["first"] = state(workdir, url)
    grade_by_hand(url, "alice")
    grade_by_hand(url, "bob")

    resubmitted = json.loads(json.dumps(solution))
    cell(resubmitted, "onehot")["source"] += "\n# checked again before handing in"
    hand_in(inbox, "alice", resubmitted)
    changed = json.loads(json.dumps(solution))
    cell(changed, WRITTEN[1])["source"] = "Ties are broken by first occurrence, so two runs agree."
    hand_in(inbox, "bob", changed)
    run(inbox)
    seen["resubmitted"] = state(workdir, url)

    run(inbox, force=True)
    seen["forced"] = state(workdir, url)

    printed = io.StringIO()
    with redirect_stdout(printed):
        main([CHAPTER, str(inbox), "--workdir", str(workdir), "--due", "2026-10-05T23:59+00:00",
              "--late-penalty", "10%/day", "--force", "--jobs", "1"])
    seen["new due date"] = {**state(workdir, url), "printed": printed.getvalue()}

    canvas_zip = tmp / "canvas.zip"
    from_canvas = json.loads(json.dumps(resubmitted))
    cell(from_canvas, "embed")["source"] += "\n# from Canvas"
    with zipfile.ZipFile(canvas_zip, "w") as archive:
        archive.writestr(f"alice_4711_9001_{CHAPTER}.ipynb", json.dumps(from_canvas))
    run(canvas_zip)
    seen["canvas zip"] = state(workdir, url)

    grade_by_hand(url, "bob")  # the assistant reviews bob's new answer; the next run grades only alice's zip
    run(canvas_zip)
    seen["reviewed"] = state(workdir, url)

    (workdir / CHAPTER / "grades.csv").unlink()  # plain nbgrader, from the repository, on the same gradebook
    nbgrader("export", *workdir_options(workdir))
    seen["plain export"] = state(workdir, url)
    return seen


@pytest.mark.parametrize("path", ["resubmitted", "forced", "new due date", "canvas zip", "reviewed"])
def test_written_grades_and_comments_of_an_unchanged_answer_survive_a_regrade(regrades, path):
    now = regrades[path]
    assert now["written"]["alice"] == [(2.0, False, COMMENT), (3.0, False, COMMENT)]
    alice = now["rows"]["alice"]
    # from the new due date on; Canvas's download gives no time, and nbgrader keeps the one it knew
    late = path in ("new due date", "canvas zip", "reviewed")
    status = "graded, late by 12.0 h, penalty 2.5" if late else "graded"
    assert (alice["status"], alice["written_score"], alice["awaiting_manual_points"]) == (status, "5.0", "0.0")
    assert (alice["autograded_score"], alice["score"]) == ("20.0", "22.5" if late else "25.0")
    assert "alice@example.org" in now["moodle"]
    assert NOT_FINAL not in now["pages"]["alice"]


def test_before_grading_by_hand_the_written_answers_await_it(regrades):
    alice = regrades["first"]["rows"]["alice"]
    assert (alice["status"], alice["awaiting_manual_points"], alice["score"]) == ("awaiting manual grading", "5.0",
                                                                                 "20.0")
    assert regrades["first"]["moodle"] == []


@pytest.mark.parametrize("path", ["resubmitted", "forced", "new due date", "canvas zip"])
def test_a_changed_written_answer_keeps_its_grade_and_comment_marked_for_review(regrades, path):
    now = regrades[path]
    assert now["written"]["bob"] == [(2.0, False, COMMENT), (3.0, True, COMMENT)]
    bob = now["rows"]["bob"]
    assert bob["status"].startswith("to review: written answers changed since they were graded")
    assert (bob["written_score"], bob["awaiting_manual_points"], bob["to_review_points"]) == ("5.0", "0.0", "3.0")
    assert "bob@example.org" not in now["moodle"]  # not final: an import must not overwrite the LMS's grade
    assert "Not final yet: written answers changed since they were graded, to review" in now["pages"]["bob"]


def test_once_reviewed_the_changed_answer_is_graded_and_every_output_says_so_wherever_it_came_from(regrades):
    reviewed = regrades["reviewed"]  # a run on a zip without bob's hand-in
    assert reviewed["written"]["bob"] == [(2.0, False, COMMENT), (3.0, False, COMMENT)]
    assert reviewed["rows"]["bob"]["status"].startswith("graded") and "bob@example.org" in reviewed["moodle"]
    assert NOT_FINAL not in reviewed["pages"]["bob"]  # his page was rebuilt from the gradebook


def test_canvas_rows_carry_the_user_id_of_the_canvas_download(regrades):
    assert regrades["forced"]["canvas"] == {"    Points Possible": ""}  # nobody's Canvas user id is known yet
    assert regrades["canvas zip"]["canvas"]["alice"] == "4711"


def test_the_summary_says_the_status_and_score_of_the_csv(regrades):
    printed, rows = regrades["new due date"]["printed"], regrades["new due date"]["rows"]
    for student in ("alice", "bob"):
        line = next(line for line in printed.splitlines() if line.startswith(student + " "))
        score, status = line.split()[2], line.split("  ")[-1].split(";")[0].strip()
        assert (float(score), status) == (float(rows[student]["score"]), rows[student]["status"]), line


def test_the_gradebook_named_is_the_one_used_by_the_command_and_by_plain_nbgrader(regrades):
    assert "gradebook: postgresql://postgres@127.0.0.1:" in regrades["new due date"]["printed"]
    assert regrades["new due date"]["rows"]["alice"]["duedate"].startswith("2026-10-05 23:59")
    assert regrades["plain export"]["rows"] == regrades["reviewed"]["rows"]


def test_the_late_penalty_comes_from_the_gradebook_and_the_feedback_says_how_late(regrades):
    page = regrades["new due date"]["pages"]["alice"]
    assert "Handed in 12.0 h after the due date" in page and "takes off 2.5 points" in page
