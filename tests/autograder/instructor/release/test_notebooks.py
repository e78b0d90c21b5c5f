"""The committed student notebooks are exactly what nbgrader generates from the solutions, and leak nothing."""
import json
from pathlib import Path

import pytest

from grading.instructor.course import NOTEBOOKS, chapters, nbgrader
from grading.instructor.release.notebooks import leaked, secret_lines

VOLATILE_NOTEBOOK_KEYS = {"language_info", "widgets", "toc", "varInspector"}
VOLATILE_CELL_KEYS = {"execution", "collapsed", "scrolled", "jupyter", "ExecuteTime"}


def normalised(path: Path) -> dict:
    notebook = json.loads(path.read_text())
    notebook["metadata"] = {k: v for k, v in notebook["metadata"].items() if k not in VOLATILE_NOTEBOOK_KEYS}
    for cell in notebook["cells"]:
        cell["metadata"] = {k: v for k, v in cell["metadata"].items() if k not in VOLATILE_CELL_KEYS}
        cell.pop("execution_count", None)
        cell.pop("outputs", None)
    return notebook


@pytest.fixture(scope="module")
def fresh_release(tmp_path_factory) -> Path:
    release = tmp_path_factory.mktemp("release")
    for chapter in chapters():
        nbgrader("generate_assignment", chapter, "--force", "--no-db", f"--CourseDirectory.release_directory={release}")
    return release


@pytest.mark.parametrize("chapter", chapters())
def test_committed_student_notebooks_match_a_fresh_generation(chapter, fresh_release):
    committed = sorted(p.relative_to(NOTEBOOKS) for p in (NOTEBOOKS / chapter).rglob("*") if p.is_file())
    generated = sorted(p.relative_to(fresh_release) for p in (fresh_release / chapter).rglob("*") if p.is_file())
    assert committed == generated, "notebooks/ has other files than a fresh release: run `make release`"
    for relative in committed:
        if relative.suffix == ".ipynb":
            assert normalised(NOTEBOOKS / relative) == normalised(fresh_release / relative), (
                f"notebooks/{relative} differs from a fresh `nbgrader generate_assignment`: run `make release`")


@pytest.mark.parametrize("chapter", chapters())
def test_student_notebooks_contain_no_solution_or_hidden_test_line(chapter):
    secret = secret_lines(chapter)
    assert secret, "the chapter has no solution regions: the check would be vacuous"
    for released in (NOTEBOOKS / chapter).glob("*.ipynb"):
        text = "\n".join("".join(c["source"]) for c in json.loads(released.read_text())["cells"])
        shown = leaked(secret, text)
        assert not shown, f"{released.name} leaks solution or hidden-test lines: {shown[:3]}"
