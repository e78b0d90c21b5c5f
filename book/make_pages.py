"""Make the website's chapter pages from the solution notebooks.

Each solution notebook is executed (so the page shows real outputs and figures), then
nbgrader's own ClearSolutions and ClearHiddenTests preprocessors strip it exactly as
they strip the student version; outputs are kept. Cells tagged ``remove-input`` lose their
code too (chapter 06's given LSTM is chapter 05's answer). Executions are cached by the content
of the notebook and of the packages it imports, so an unchanged chapter is not re-run.

Usage: python book/make_pages.py   (writes book/chapters/<chapter>.ipynb)
"""
import hashlib
import os
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError
from nbgrader.preprocessors import ClearHiddenTests, ClearSolutions

from grading.course import REPO, SOLUTIONS, chapters

PAGES = REPO / "book" / "chapters"
CACHE = REPO / "_build" / "executed"
CODE_STUB = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def _fingerprint(notebook: Path) -> str:
    """Hash of the notebook and of every source file it can import from this repository."""
    digest = hashlib.sha256(notebook.read_bytes())
    for package in (REPO / "reference", REPO / "autograder"):
        for path in sorted(package.rglob("*.py")):
            digest.update(str(path.relative_to(REPO)).encode() + path.read_bytes())
    return digest.hexdigest()[:16]


def executed(notebook: Path) -> nbformat.NotebookNode:
    """The notebook with fresh outputs, from the cache when nothing it depends on has changed."""
    cached = CACHE / f"{notebook.stem}-{_fingerprint(notebook)}.ipynb"
    if cached.exists():
        return nbformat.read(cached, as_version=4)
    nb = nbformat.read(notebook, as_version=4)
    os.environ.pop("NBGRADER_EXECUTION", None)  # the website shows the full demos
    try:
        NotebookClient(nb, timeout=600, kernel_name="python3",
                       resources={"metadata": {"path": str(notebook.parent)}}).execute()
    except CellExecutionError as error:
        sys.exit(f"{notebook.relative_to(REPO)} failed while making its web page:\n{error}")
    CACHE.mkdir(parents=True, exist_ok=True)
    for stale in CACHE.glob(f"{notebook.stem}-*.ipynb"):
        stale.unlink()
    nbformat.write(nb, cached)
    return nb


def page(notebook: Path) -> nbformat.NotebookNode:
    """The executed notebook as a student sees it: solutions and hidden tests removed, outputs kept."""
    nb = executed(notebook)
    resources = {}
    nb, resources = ClearSolutions(code_stub=CODE_STUB).preprocess(nb, resources)
    nb, resources = ClearHiddenTests().preprocess(nb, resources)
    for cell in nb.cells:
        cell.metadata.pop("nbgrader", None)
        if "remove-input" in cell.metadata.get("tags", ()):  # e.g. an earlier chapter's answers, given as a tool
            cell.source = ""
        if "outputs" in cell:  # live widgets (tqdm's bars) need a kernel and a CDN; the epoch lines remain
            cell.outputs = [o for o in cell.outputs if WIDGET_VIEW not in o.get("data", {})]
    nb.metadata.pop("widgets", None)
    return nb


def main() -> None:
    PAGES.mkdir(parents=True, exist_ok=True)
    for chapter in chapters():
        for notebook in sorted((SOLUTIONS / chapter).glob("*.ipynb")):
            nbformat.write(page(notebook), PAGES / notebook.name)
            print(f"page book/chapters/{notebook.name} from {notebook.relative_to(REPO)}")


if __name__ == "__main__":
    main()
