"""The committed student notebooks are exactly what nbgrader generates from the solutions, and leak nothing."""
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from grading.instructor.course import NOTEBOOKS, chapters
from grading.instructor.release.notebooks import leaked, release, secret_lines

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
    folder = tmp_path_factory.mktemp("release")
    with ThreadPoolExecutor(2) as pool:  # one nbgrader process per chapter, each mostly importing: two at a time
        list(pool.map(lambda chapter: release(chapter, "--no-db", directory=folder), chapters()))
    return folder


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


def install_cell(notebook: Path) -> str:
    cells = json.loads(notebook.read_text())["cells"]
    return next("".join(c["source"]) for c in cells if "COURSE_REPOSITORY" in "".join(c["source"]))


def run_without_the_course(install: str, monkeypatch) -> list[list[str]]:
    """Run an install cell as on Colab (neither package importable); return the commands it ran."""
    import importlib.util
    import subprocess

    ran = []
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None)
    monkeypatch.setattr(subprocess, "run", lambda argv, **kwargs: ran.append(argv))
    exec(compile(install, "install cell", "exec"), {})
    return ran


def test_a_configured_student_repository_is_where_the_install_cell_installs_from(tmp_path, monkeypatch):
    url = "https://github.com/example-university/seqmodels-students"
    release("01_tokens", "--no-db", directory=tmp_path, repository=url)
    install = install_cell(tmp_path / "01_tokens" / "01_tokens.ipynb")
    assert f'COURSE_REPOSITORY = "{url}"' in install
    ran = run_without_the_course(install, monkeypatch)
    assert [argv[-1] for argv in ran] == [f"git+{url}#subdirectory=autograder", f"git+{url}#subdirectory=reference"]


def test_without_a_student_repository_the_install_cell_says_what_to_configure(tmp_path, monkeypatch):
    release("01_tokens", "--no-db", directory=tmp_path, repository="")
    install = install_cell(tmp_path / "01_tokens" / "01_tokens.ipynb")
    with pytest.raises(SystemExit, match=r"repository\.url in _config\.yml and runs `make release`"):
        run_without_the_course(install, monkeypatch)


@pytest.mark.parametrize("chapter", ["01_tokens", "12_transformer"])
def test_the_release_gives_the_kernel_the_graph_the_grader_reads(chapter, fresh_release):
    """After the set-up cell, a chapter whose graded functions build on each other gives the kernel that graph, as the
    checker reads it from the solution (grading.student.progress); a chapter without such functions has no such cell."""
    import nbformat

    from grading.instructor.course import SOLUTIONS
    from grading.instructor.verdicts.checker import graded_functions
    from grading.student import dependencies

    cells = json.loads((fresh_release / chapter / f"{chapter}.ipynb").read_text())["cells"]
    given = [c for c in cells if c.get("id") == "builds-on"]
    calls = dependencies.graded_calls(graded_functions(nbformat.read(SOLUTIONS / chapter / f"{chapter}.ipynb", 4)))
    if not any(calls.values()):
        assert not given
        return
    (cell,) = given
    setup = next(i for i, c in enumerate(cells) if c["metadata"].get("nbgrader", {}).get("grade_id") == "setup")
    assert cells[setup + 1] is cell
    recorded = {}
    exec("".join(cell["source"]).replace("from grading.student.progress import builds_on", ""),
         {"builds_on": recorded.update})
    assert {name: set(callees) for name, callees in recorded.items()} == calls
    assert recorded["encoder_block"] == ["attention_heads", "position_wise_ffn"]
