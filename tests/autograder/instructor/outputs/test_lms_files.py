"""LMS files that import (grading.instructor.outputs.export, grading.instructor.gradebook.roster).

The rosters are the LMSs' own grade exports, header and rows as Canvas and Moodle write them; the
files written are read back the way the LMS's importer reads them: Canvas matches a row by
``ID`` (else ``SIS User ID``, ``SIS Login ID``) and skips the ``Points Possible`` row, Moodle maps
a chosen column (``ID number`` or ``Email address``) to its users.
"""
import csv
import unicodedata
from pathlib import Path, PurePosixPath

import pytest

from grading.instructor.gradebook import database, roster
from grading.instructor.intake import lms
from grading.instructor.outputs import export

CHAPTER = "01_tokens"

CANVAS_EXPORT = '''Student,ID,SIS User ID,SIS Login ID,Integration ID,Section,Chapter 0 (31415)
    Points Possible,,,,,,25.00
"Smith, Alice",4711,S001,asmith,,NLP 101 A,
"Jones, Bob",4712,S002,bjones,,NLP 101 A,
"Kim, Carol",4713,,ckim,,NLP 101 B,
'''
MOODLE_EXPORT = '''\ufeffFirst name,Last name,ID number,Institution,Department,Email address,Assignment: Chapter 0 (Real),\
Last downloaded from this course
Alice,Smith,S001,Example University,Linguistics,alice.smith@example.edu,-,1764201600
Carol,Kim,,Example University,Linguistics,carol.kim@example.edu,-,1764201600
'''


def graded(url: str, scores: dict[str, float]) -> None:
    """A chapter of one 25-point test cell, each student autograded with the score given."""
    with database.opened(url) as gradebook:
        gradebook.add_assignment(CHAPTER)
        gradebook.add_notebook(CHAPTER, CHAPTER)
        gradebook.add_grade_cell("test_all", CHAPTER, CHAPTER, max_score=25, cell_type="code")
        for student, score in scores.items():
            gradebook.update_or_create_student(student)
            submission = gradebook.add_submission(CHAPTER, student)
            test = submission.notebooks[0].grades[0]
            test.auto_score, test.needs_manual_grade = score, False  # as nbgrader's SaveAutoGrades records it
        gradebook.db.commit()


def exported(url: str, folder: Path) -> tuple[dict, list[str]]:
    with database.opened(url) as gradebook:
        rows, column = export.rows(gradebook, CHAPTER), roster.canvas_column(gradebook, CHAPTER)
    export.write(folder, CHAPTER, None, rows, column)
    return ({name: (folder / name).read_text() for name in (export.CANVAS, export.MOODLE)},
            export.unmatched(rows, CHAPTER, column))


def canvas_import(text: str) -> dict[str, dict]:
    """Rows as Canvas's grade importer takes them: by ID, the Points Possible row aside."""
    table = list(csv.DictReader(text.splitlines()))
    assert list(table[0]) == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", CHAPTER]
    assert table[0]["Student"].strip() == "Points Possible" and table[0][CHAPTER] == "25.0"
    return {row["ID"] or row["SIS User ID"] or row["SIS Login ID"]: row for row in table[1:]}


def test_canvas_rows_are_keyed_by_the_user_id_of_the_download_and_the_sis_ids_of_the_roster(gradebook_url, tmp_path):
    # alice's and bob's hand-ins came from Canvas's download (smithalice_4711_..., jonesbob_4712_...)
    graded(gradebook_url, {"smithalice": 25.0, "jonesbob": 12.5, "kimcarol": 20.0})
    roster.record_canvas_ids(gradebook_url, {"smithalice": "4711", "jonesbob": "4712"})
    before, gaps = exported(gradebook_url, tmp_path / "before")
    assert sorted(canvas_import(before[export.CANVAS])) == ["4711", "4712"]
    assert gaps[0].startswith("canvas.csv leaves out 1 student(s) without a Canvas user id or SIS id (kimcarol)")

    (tmp_path / "export.csv").write_text(CANVAS_EXPORT)
    roster.record(gradebook_url, roster.read(tmp_path / "export.csv"))
    after, gaps = exported(gradebook_url, tmp_path / "after")
    rows = canvas_import(after[export.CANVAS])
    assert rows["4711"] == {"Student": "Smith, Alice", "ID": "4711", "SIS User ID": "S001", "SIS Login ID": "asmith",
                            "Section": "NLP 101 A", CHAPTER: "25.0"}
    assert (rows["4712"]["SIS User ID"], rows["4712"][CHAPTER]) == ("S002", "12.5")
    assert (rows["4713"]["Student"], rows["4713"]["SIS Login ID"], rows["4713"][CHAPTER]) == ("Kim, Carol", "ckim",
                                                                                               "20.0")
    assert not any(gap.startswith("canvas.csv leaves out") for gap in gaps)


def test_the_canvas_column_names_the_assignment_with_its_id_from_the_roster_so_canvas_fills_it(gradebook_url,
                                                                                              tmp_path):
    graded(gradebook_url, {"smithalice": 25.0})
    roster.record_canvas_ids(gradebook_url, {"smithalice": "4711"})
    before, gaps = exported(gradebook_url, tmp_path / "before")
    assert before[export.CANVAS].splitlines()[0].endswith(f",{CHAPTER}")
    assert any(f"column {CHAPTER} carries no Canvas assignment id" in gap for gap in gaps), gaps

    export_with_chapter = CANVAS_EXPORT.replace("Chapter 0 (31415)", f"Chapter 0 (31415),{CHAPTER} (31416)")
    export_with_chapter = export_with_chapter.replace(",25.00\n", ",25.00,25.00\n")
    (tmp_path / "export.csv").write_text(export_with_chapter)
    assert roster.canvas_assignments(tmp_path / "export.csv") == {"Chapter 0": "Chapter 0 (31415)",
                                                                   CHAPTER: f"{CHAPTER} (31416)"}
    roster.record_canvas_assignments(gradebook_url, roster.canvas_assignments(tmp_path / "export.csv"))
    after, gaps = exported(gradebook_url, tmp_path / "after")
    table = list(csv.DictReader(after[export.CANVAS].splitlines()))
    assert list(table[0])[-1] == f"{CHAPTER} (31416)" and table[1][f"{CHAPTER} (31416)"] == "25.0"
    assert not any("carries no Canvas assignment id" in gap for gap in gaps)


def test_moodle_rows_carry_the_id_number_and_email_of_the_roster_and_say_who_is_missing(gradebook_url, tmp_path):
    # hand-ins from Moodle's download: "Alice Smith_1021_assignsubmission_file_..." is the student Alice-Smith
    graded(gradebook_url, {"Alice-Smith": 25.0, "Carol-Kim": 20.0, "Dan-Wu": 5.0})
    before, gaps = exported(gradebook_url, tmp_path / "before")
    assert before[export.MOODLE].splitlines() == ["First name,Last name,ID number,Email address," + CHAPTER]
    assert any("moodle.csv leaves out 3 student(s)" in gap and "give --roster with Moodle's grade export" in gap
               for gap in gaps)

    (tmp_path / "moodle.csv").write_text(MOODLE_EXPORT, encoding="utf-8")
    roster.record(gradebook_url, roster.read(tmp_path / "moodle.csv"))
    after, gaps = exported(gradebook_url, tmp_path / "after")
    # Moodle's import: "Map from" Email address (or ID number) "to" the user's email address (or ID number)
    by_email = {row["Email address"]: row for row in csv.DictReader(after[export.MOODLE].splitlines())}
    assert by_email == {
        "alice.smith@example.edu": {"First name": "Alice", "Last name": "Smith", "ID number": "S001",
                                    "Email address": "alice.smith@example.edu", CHAPTER: "25.0"},
        "carol.kim@example.edu": {"First name": "Carol", "Last name": "Kim", "ID number": "",
                                  "Email address": "carol.kim@example.edu", CHAPTER: "20.0"}}
    assert any("moodle.csv leaves out 1 student(s)" in gap and "(Dan-Wu)" in gap for gap in gaps)


def test_a_file_that_is_no_lms_export_is_refused_naming_the_columns(tmp_path):
    (tmp_path / "names.csv").write_text("name,mail\nAlice,a@example.edu\n")
    with pytest.raises(ValueError, match="Canvas's grade export"):
        roster.read(tmp_path / "names.csv")


@pytest.mark.parametrize("spelt", ["NFC", "NFD"])
def test_a_name_with_an_accent_is_one_student_in_the_roster_and_in_canvass_download(gradebook_url, tmp_path, spelt):
    (tmp_path / "export.csv").write_text('Student,ID,SIS User ID,SIS Login ID,Section\n"Gödel, Kurt",4711,,,\n')
    roster.record(gradebook_url, roster.read(tmp_path / "export.csv"))
    download = unicodedata.normalize(spelt, f"gödelkurt_4711_9001_{CHAPTER}.ipynb")  # NFD: a zip made on a Mac
    (hand_in,) = [lms.HandIn(PurePosixPath(download), bytes, 0.0, 0)]
    lms.attribute([hand_in], CHAPTER, "canvas")
    roster.record_canvas_ids(gradebook_url, {hand_in.student: hand_in.identity})
    with database.opened(gradebook_url) as gradebook:
        assert [(s.id, s.last_name, s.lms_user_id) for s in gradebook.students] == [("gödelkurt", "Gödel", "4711")]
