"""Intake: whatever shape a hand-in has, it is graded on its merits or refused with a reason; nothing is lost.

Each repairable hand-in must come out as the same notebook, cell for cell, as the clean hand-in
it was made from (so nbgrader grades it the same: tests/autograder/test_grade.py checks the points).
"""
import json
import os
from pathlib import Path

import nbformat
import pytest

from grading.instructor.course import NOTEBOOKS
from grading.instructor.example_class import build_submission, load_students
from grading.instructor.intake.submissions import collect, prepare, writes_into
from tests.autograder.instructor.intake.hand_ins import zipped

CHAPTER = "02_pooling"


@pytest.fixture(scope="module")
def clean(tmp_path_factory) -> str:
    """A wrong-axis hand-in (13 of 20 points), as text: its partly right answers show a cell mixed up."""
    student = next(s for s in load_students(CHAPTER) if s.student_id == "wrong-axis")
    return (build_submission(student, CHAPTER, tmp_path_factory.mktemp("built")) / f"{CHAPTER}.ipynb").read_text()


def graded_cells(notebook: nbformat.NotebookNode) -> list:
    """What nbgrader grades: each graded cell's id, kind, text and nbgrader metadata, in order."""
    return [(c.metadata["nbgrader"]["grade_id"], c.cell_type, c.source, c.metadata["nbgrader"])
            for c in notebook.cells if "nbgrader" in c.metadata]


def repairs(submission) -> list[str]:
    """The notes about the hand-in (the wrong-axis answers are also flagged as near-copies of the reference)."""
    return [note for note in submission.notes if "near-copy" not in note]


def intake(folder: Path, layout: str = "auto") -> dict:
    return {s.student: (s, prepare(s, CHAPTER)) for s in collect(folder, CHAPTER, layout)}


def edited(text: str, change) -> str:
    data = json.loads(text)
    change(data)
    return json.dumps(data, ensure_ascii=False)


def without_nbgrader_metadata(data: dict) -> None:
    for cell in data["cells"]:
        cell["metadata"].pop("nbgrader", None)


def damaged(kind: str, value):
    """Set the nbgrader metadata of the first cell of ``kind`` ("answer", "test") to ``value``, or call ``value``
    with that metadata."""
    def change(data: dict) -> None:
        meta = next(c["metadata"]["nbgrader"] for c in data["cells"]
                    if c["metadata"].get("nbgrader", {}).get("solution" if kind == "answer" else "grade"))
        cell = next(c for c in data["cells"] if c["metadata"].get("nbgrader") is meta)
        if callable(value):
            value(meta)
        else:
            cell["metadata"]["nbgrader"] = value
    return change


def with_accents(data: dict) -> None:
    data["cells"][0]["source"] = "# Pooling — café"


REPAIRABLE = {  # file name in a flat folder: (its content from the clean text, a word of the note it must get)
    "utf16_02.ipynb": (lambda t: t.encode("utf-16"), "UTF-16"),
    "utf16be_02.ipynb": (lambda t: t.encode("utf-16-be"), "UTF-16"),
    "utf32_02.ipynb": (lambda t: t.encode("utf-32"), "UTF-32"),
    "bom_02.ipynb": (lambda t: b"\xef\xbb\xbf" + t.encode(), "byte-order mark"),
    "cleared_02.ipynb": (lambda t: edited(t, without_nbgrader_metadata).encode(), "nbgrader's metadata was missing"),
    "string_02.ipynb": (lambda t: edited(t, damaged("answer", "solution")).encode(), '"solution" instead of a dict'),
    "null_02.ipynb": (lambda t: edited(t, damaged("test", None)).encode(), "null instead of a dictionary"),
    "renamed_02.ipynb": (lambda t: edited(t, damaged("test", lambda m: m.update(grade_id="test_mine"))).encode(),
                         "grade id 'test_mine', which the release does not have"),
    "renamedanswer_02.ipynb": (lambda t: edited(t, damaged("answer", lambda m: m.update(grade_id=["x"]))).encode(),
                               "grade id \"['x']\""),
    "nometa_02.ipynb": (lambda t: edited(t, lambda d: d.pop("metadata")).encode(), "the notebook's metadata"),
    "bare_02.ipynb": (lambda t: edited(t, lambda d: [c.pop("metadata") for c in d["cells"]]).encode(),
                      "put back what was missing: the metadata of"),
    "upper_02.IPYNB": (lambda t: t.encode(), "despite its file name extension"),
    "json_02.json": (lambda t: t.encode(), "despite its file name extension"),
    "zip_02.zip": (lambda t: zipped({"work/02_pooling.ipynb": t}), None),
}


@pytest.fixture(scope="module")
def repaired(clean, tmp_path_factory):
    inbox = tmp_path_factory.mktemp("inbox")
    (inbox / "control_02.ipynb").write_text(clean)
    for name, (content, _) in REPAIRABLE.items():
        (inbox / name).write_bytes(content(clean))
    (inbox / "folder").mkdir()
    (inbox / "folder" / "my notebook.ipynb").write_text(clean)
    return intake(inbox)


@pytest.mark.parametrize("name", [*REPAIRABLE, "folder"])
def test_a_repairable_hand_in_becomes_the_clean_notebook_with_a_note(repaired, name):
    submission, notebook = repaired[name.split("_")[0]]
    _, control = repaired["control"]
    assert notebook is not None, submission.fatal
    assert graded_cells(notebook) == graded_cells(control)
    word = REPAIRABLE.get(name, (None, None))[1]
    assert word is None or any(word in note for note in submission.notes), submission.notes


def test_a_notebook_in_windows_1252_is_read_with_its_accents(clean, tmp_path):
    (tmp_path / "ana_02.ipynb").write_bytes(edited(clean, with_accents).encode("cp1252"))
    [(submission, notebook)] = intake(tmp_path).values()
    assert notebook.cells[0].source == "# Pooling — café" and "Windows-1252" in " ".join(submission.notes)


def test_partly_cleared_metadata_is_matched_around_the_cells_that_kept_it(clean, tmp_path):
    def clear_answers(data):
        for cell in data["cells"]:
            if cell["metadata"].get("nbgrader", {}).get("solution"):  # answers and written answers
                del cell["metadata"]["nbgrader"]
    (tmp_path / "clean_02.ipynb").write_text(clean)
    (tmp_path / "partly_02.ipynb").write_text(edited(clean, clear_answers))
    prepared = intake(tmp_path)
    assert graded_cells(prepared["partly"][1]) == graded_cells(prepared["clean"][1])
    assert "missing from 11 cells" in prepared["partly"][0].notes[0]  # 9 answers and 2 written answers


def test_another_chapters_notebook_with_cleared_metadata_is_not_taken_for_this_one(tmp_path):
    other = json.loads((NOTEBOOKS / "08_positional" / "08_positional.ipynb").read_text())
    without_nbgrader_metadata(other)
    (tmp_path / "olga_02.ipynb").write_text(json.dumps(other))
    [(submission, notebook)] = intake(tmp_path).values()
    assert notebook is None and "is not a 02_pooling notebook" in submission.fatal


REFUSED = {  # a flat folder's file: (its content, the words of the reason its feedback must give)
    "empty_02.ipynb": ("", "empty_02.ipynb is an empty file"),
    "broken_02.ipynb": ('{"cells": [', "broken_02.ipynb is not a valid notebook"),
    "config_02.json": ('{"name": "x"}', "config_02.json is JSON but not a Jupyter notebook"),
    "pdf_02.pdf": (b"%PDF-1.4\x00\x01", "pdf_02.pdf is not a valid notebook"),
    "other_02.ipynb": ((NOTEBOOKS / "08_positional" / "08_positional.ipynb").read_text(),
                       "other_02.ipynb is the notebook of chapter 08_positional, not 02_pooling"),
    "blank_02.ipynb": (nbformat.writes(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1")])),
                       "blank_02.ipynb is not a 02_pooling notebook"),
    "badzip_02.zip": (b"PK\x03\x04 cut short", "badzip_02.zip is not a valid notebook"),
}


def test_every_hand_in_that_cannot_be_graded_gets_its_row_and_reason(tmp_path):
    for name, (content, _) in REFUSED.items():
        (tmp_path / name).write_bytes(content if isinstance(content, bytes) else content.encode())
    (tmp_path / "hollow").mkdir()
    prepared = intake(tmp_path)
    assert sorted(prepared) == sorted([name.split("_")[0] for name in REFUSED] + ["hollow"])
    for name, (_, reason) in REFUSED.items():
        submission, notebook = prepared[name.split("_")[0]]
        assert notebook is None and submission.fatal.startswith(reason), (name, submission.fatal)
    assert prepared["hollow"][0].fatal == "the folder hollow is empty"


def test_a_notebook_among_other_files_is_graded_and_a_lone_other_file_is_named(clean, tmp_path):
    (tmp_path / "bo").mkdir()
    (tmp_path / "bo" / "notes.txt").write_text("my notes")
    (tmp_path / "bo" / "02_pooling.ipynb").write_text(clean)
    (tmp_path / "cy_02.txt").write_text("forgot the notebook")
    prepared = intake(tmp_path)
    assert prepared["bo"][1] is not None and repairs(prepared["bo"][0]) == []
    assert prepared["cy"][0].fatal.startswith("cy_02.txt is not a valid notebook")


def test_the_newest_of_several_notebooks_is_graded_and_the_others_named(clean, tmp_path):
    for name, age in (("dan_try1.ipynb", 300), ("dan_try2.ipynb", 200), ("dan_try3.ipynb", 100)):
        (tmp_path / name).write_text(clean if name != "dan_try3.ipynb" else "")
        os.utime(tmp_path / name, (0, 1e9 - age))
    [(submission, notebook)] = intake(tmp_path).values()
    assert notebook is not None and str(submission.source.path) == "dan_try2.ipynb"
    assert submission.notes[0] == ("3 notebooks handed in; graded the newest 02_pooling notebook, dan_try2.ipynb "
                                   "(ignored dan_try3.ipynb, dan_try1.ipynb)")


def test_two_people_behind_one_id_are_refused_naming_both_files(clean, tmp_path):
    (tmp_path / "Alice Smith_02.ipynb").write_text(clean)
    (tmp_path / "Alice Jones_02.ipynb").write_text(clean)
    [(submission, notebook)] = intake(tmp_path).values()
    assert notebook is None and submission.student == "Alice"
    assert "Alice Jones_02.ipynb" in submission.fatal and "Alice Smith_02.ipynb" in submission.fatal


def test_canvas_namesakes_are_refused_and_late_marks_noted(clean, tmp_path):
    (tmp_path / "canvas.zip").write_bytes(zipped({"smithbob_340934_1_02_pooling.ipynb": clean,
                                                  "smithbob_340999_2_02_pooling.ipynb": clean,
                                                  "jonesann_LATE_340935_3_02_pooling.ipynb": clean}))
    prepared = intake(tmp_path / "canvas.zip")
    bob, ann = prepared["smithbob"][0], prepared["jonesann"][0]
    assert "smithbob_340934_1_02_pooling.ipynb" in bob.fatal and "smithbob_340999_2_02_pooling.ipynb" in bob.fatal
    assert prepared["jonesann"][1] is not None and any("late" in note for note in ann.notes)


def test_moodles_download_in_folders_gives_every_student_their_notebook(clean, tmp_path):
    (tmp_path / "moodle.zip").write_bytes(zipped({
        "Alice Smith_1234_assignsubmission_file_/02_pooling.ipynb": clean,
        "Alice Jones_1235_assignsubmission_file_/Pooling (1).ipynb": clean,
        "Alice Jones_1235_assignsubmission_onlinetext_/onlinetext.html": "<p>see the file</p>"}))
    prepared = intake(tmp_path / "moodle.zip")
    assert sorted(prepared) == ["Alice-Jones", "Alice-Smith"]
    assert all(notebook is not None and not repairs(submission) for submission, notebook in prepared.values())


def test_nbgraders_layout_finds_a_misplaced_notebook_and_tells_the_missing_one_from_another_chapters(clean, tmp_path):
    """`nbgrader collect` keeps every chapter's hand-ins in one folder: hal handed in chapter 01 only, so he has not
    handed in 02 (a "not handed in" row, not a failed one, which an LMS would take for a 0); ivy's folder is empty."""
    for path in ("eve/02_pooling.ipynb", "fay/01_tokens/02_pooling.ipynb", "gus/02_pooling/work/mine.ipynb"):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(clean)
    (tmp_path / "hal" / "01_tokens").mkdir(parents=True)
    (tmp_path / "hal" / "01_tokens" / "01_tokens.ipynb").write_text("{}")
    (tmp_path / "ivy").mkdir()
    prepared = intake(tmp_path)
    assert repairs(prepared["eve"][0]) == ["found eve/02_pooling.ipynb, not in eve/02_pooling/; graded it"]
    assert prepared["fay"][0].notes[0] == "found fay/01_tokens/02_pooling.ipynb, not in fay/02_pooling/; graded it"
    assert repairs(prepared["gus"][0]) == ["renamed mine.ipynb to 02_pooling.ipynb"]
    assert prepared["hal"][0].absent and prepared["hal"][0].fatal is None and prepared["hal"][1] is None
    assert prepared["ivy"][0].fatal == "no notebook for 02_pooling was submitted" and not prepared["ivy"][0].absent


def test_grading_never_writes_into_the_folder_it_reads(tmp_path):
    classwork = tmp_path / "classwork"
    assert writes_into(classwork / "submitted", classwork) is None  # nbgrader collect's folder, graded in place
    assert writes_into(tmp_path / "inbox", classwork) is None
    assert "inside" in writes_into(tmp_path, classwork)
    assert "which grading writes" in writes_into(classwork / "intake" / "x", classwork)
