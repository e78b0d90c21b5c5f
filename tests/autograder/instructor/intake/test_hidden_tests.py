"""Plain ``nbgrader autograde`` on an untouched student notebook is silent (grading.instructor.intake.hidden_tests).

nbgrader records a test cell's checksum with its hidden tests and releases it without them, so its
sanitizing step used to report every untouched test cell with hidden tests as changed; the course's
step compares the cell with what the release gave. nbgrader's real commands run here on chapter 01:
alice hands in the release as it is, bob edits one test cell. Only bob's edit is reported, and both
are graded with every hidden test in place. The gradebook makes their first submissions without
SQLAlchemy's warnings (grading.instructor.gradebook.new_submissions).
"""
import shutil

import nbformat

from grading.instructor.course import NOTEBOOKS, SOLUTIONS, nbgrader

CHAPTER = "01_tokens"
EDITED = "test_pad_batch_edges"


def _grade_ids_with_hidden_tests() -> dict[str, str]:
    nb = nbformat.read(SOLUTIONS / CHAPTER / f"{CHAPTER}.ipynb", as_version=4)
    return {cell.metadata["nbgrader"]["grade_id"]: cell.source for cell in nb.cells
            if "BEGIN HIDDEN TESTS" in cell.source}


def _hand_in(submitted, student: str, nb) -> None:
    folder = submitted / student / CHAPTER
    folder.mkdir(parents=True)
    nbformat.write(nb, folder / f"{CHAPTER}.ipynb")


def test_only_an_edited_test_cell_is_reported_and_every_hidden_test_is_graded(tmp_path):
    hidden = _grade_ids_with_hidden_tests()
    assert EDITED in hidden and len(hidden) > 1
    released = nbformat.read(NOTEBOOKS / CHAPTER / f"{CHAPTER}.ipynb", as_version=4)
    _hand_in(tmp_path / "submitted", "alice", released)
    edited = nbformat.read(NOTEBOOKS / CHAPTER / f"{CHAPTER}.ipynb", as_version=4)
    next(c for c in edited.cells if c.metadata.get("nbgrader", {}).get("grade_id") == EDITED).source += "\npass"
    _hand_in(tmp_path / "submitted", "bob", edited)
    options = [f"--CourseDirectory.{step}_directory={tmp_path / step}"
               for step in ("submitted", "autograded", "feedback", "release")]
    options.append(f"--CourseDirectory.db_url=sqlite:///{tmp_path / 'gradebook.db'}")
    try:
        nbgrader("generate_assignment", CHAPTER, "--force", *options)
        log = nbgrader("autograde", CHAPTER, *options)
    finally:
        shutil.rmtree(tmp_path / "release", ignore_errors=True)
    reported = [line for line in log.splitlines() if "has changed" in line]
    assert len(reported) == 1 and f"cell {EDITED} " in reported[0], log
    assert "SAWarning" not in log, log
    for student in ("alice", "bob"):
        graded = nbformat.read(tmp_path / "autograded" / student / CHAPTER / f"{CHAPTER}.ipynb", as_version=4)
        sources = {c.metadata["nbgrader"]["grade_id"]: c.source for c in graded.cells
                   if c.metadata.get("nbgrader", {}).get("grade_id") in hidden}
        assert sources == hidden
