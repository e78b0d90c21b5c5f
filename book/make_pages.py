"""Make the website's chapter pages from the solution notebooks.

Each solution notebook is executed (so the page shows real outputs and figures), then
nbgrader's own ClearSolutions and ClearHiddenTests preprocessors strip it exactly as
they strip the student version; outputs are kept. Executions are cached by the content
of the notebook and of the packages it imports, so an unchanged chapter is not re-run.

The page is then turned from an exercise sheet into a chapter to read (the student notebook keeps
everything as it is):

- visible-test cells are collapsed (``hide-cell``): their code and their "✓ visible tests passed"
  line are one click away; the answer cells keep their signature and docstring, with ``...`` for
  the body the student writes;
- the grading notes (how the notebook works, forbidden calls, points of the written questions)
  move into boxes: collapsed for the rules, titled for each question; the empty answer cells go;
- markdown cells tagged ``algorithm`` (a bold title line, then the steps) become pseudocode boxes;
- the Sources section links every work it names to its entry on the Sources page (book/references.bib);
- cells tagged ``remove-input`` lose their code (chapter 06's given LSTM is chapter 05's answer);
- the grading plumbing goes: the set-up cell (it imports the test helpers and sets ``RUN_SLOW_DEMOS``)
  is removed, the demos lose their ``if RUN_SLOW_DEMOS: ... else: print("Skipped ...")`` guard (the
  page shows them run), and visible-test cells that follow one another become one collapsed cell.

Figures are drawn at twice the resolution (``retina``): sharp on phones and high-density screens.

Usage: python book/make_pages.py [--jobs 2]   (writes book/chapters/<chapter>.ipynb)

Notebooks whose outputs are not cached are executed ``--jobs`` at a time, the cores shared
between them (``OMP_NUM_THREADS``); pages whose content is unchanged are not rewritten.
"""
import argparse
import os
import re
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError
from nbgrader.preprocessors import ClearHiddenTests, ClearSolutions
from pybtex.database import parse_file

from grading.instructor import freshness
from grading.instructor.course import REPO, SOLUTIONS, chapters

PAGES = REPO / "book" / "chapters"
CACHE = REPO / "_build" / "executed"
BIBLIOGRAPHY = REPO / "book" / "references.bib"
CODE_STUB = {"python": "...  # written by you in the exercise notebook"}
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
KERNEL_OPTIONS = ["--InlineBackend.figure_formats=retina"]  # PNGs at 2x, shown at their 1x size

HOW_IT_WORKS = re.compile(r"^\*\*How this notebook works\.\*\*\s*(.*?)(?=\n\s*\n|\Z)", re.S | re.M)
FORBIDDEN = re.compile(r"(?:\*\*Forbidden\b|Forbidden as for\b).*?(?=\n\s*\n|\Z)", re.S)
QUESTION = re.compile(r"^\*\*Question (\d+) \((\d+) points?\)\.\*\*\s*(.*?)(?=\n\s*\n|\Z)", re.S | re.M)
ALGORITHM_TITLE = re.compile(r"\A\*\*(.+?)\*\*\s*\n")
SOURCES = "## Sources"
ITALIC = re.compile(r"\*([^*\n][^*]*?)\*")
OVERWRITTEN = re.compile(r"[^\n]*\r(?!\n)")  # a line's text up to its last carriage return (not a \r\n line end)
# the final state of a tqdm bar left on its line: "epoch 2/2: 100%|####| 8/8 [00:01<00:00, …]" or "12it [00:01, …]"
FINAL_BAR = re.compile(r"^[^\n]*(?:\| *\d+/\d+|\d+it) \[\d+:\d\d[^\n]*\] *(?:\n|$)", re.M)
SET_UP = re.compile(r"^RUN_SLOW_DEMOS = ", re.M)  # the set-up cell defines the demos' guard
GUARD = "RUN_SLOW_DEMOS"


def _fingerprint(notebook: Path) -> str:
    """The notebook, the way it is run, and everything it can import from this repository or install."""
    code = [REPO / "reference" / "seqmodels", REPO / "autograder" / "grading" / "student", REPO / "requirements.txt"]
    return freshness.fingerprint(notebook, " ".join(KERNEL_OPTIONS).encode(), *code)


class NotebookFailed(RuntimeError):
    """A solution notebook raised an error while it was executed for its page."""


def _shown(notebook: Path) -> Path:
    return notebook.relative_to(REPO) if notebook.is_relative_to(REPO) else notebook


def _cached(notebook: Path) -> Path:
    return CACHE / f"{notebook.stem}-{_fingerprint(notebook)}.ipynb"


def executed(notebook: Path) -> nbformat.NotebookNode:
    """The notebook with fresh outputs, from the cache when nothing it depends on has changed."""
    cached = _cached(notebook)
    if cached.exists():
        return nbformat.read(cached, as_version=4)
    nb = nbformat.read(notebook, as_version=4)
    os.environ.pop("NBGRADER_EXECUTION", None)  # the website shows the full demos
    try:
        NotebookClient(nb, timeout=600, kernel_name="python3", extra_arguments=KERNEL_OPTIONS,
                       resources={"metadata": {"path": str(notebook.parent)}}).execute()
    except CellExecutionError as error:
        raise NotebookFailed(f"{_shown(notebook)} failed while it was executed for its web page:\n{error}") from None
    CACHE.mkdir(parents=True, exist_ok=True)
    for stale in CACHE.glob(f"{notebook.stem}-*.ipynb"):
        stale.unlink()
    nbformat.write(nb, cached)
    return nb


def _timed_execution(notebook: Path) -> float:
    start = time.perf_counter()
    executed(notebook)
    return time.perf_counter() - start


def execute_all(notebooks: list[Path], jobs: int) -> dict[Path, str]:
    """Execute the notebooks whose outputs are not cached, ``jobs`` kernels at a time sharing the cores
    (``OMP_NUM_THREADS``); the failures, with their errors."""
    stale = [notebook for notebook in notebooks if not _cached(notebook).exists()]
    threads = os.environ.get("OMP_NUM_THREADS")
    if jobs > 1 and len(stale) > 1:
        os.environ["OMP_NUM_THREADS"] = str(max(1, (os.cpu_count() or 1) // jobs))  # read by each new kernel
    failures = {}
    try:
        with ThreadPoolExecutor(max(1, jobs)) as pool:  # each kernel is a process: the threads only wait for it
            runs = {pool.submit(_timed_execution, notebook): notebook for notebook in stale}
            for run in as_completed(runs):
                try:
                    print(f"executed {_shown(runs[run])} in {run.result():.0f} s", flush=True)
                except NotebookFailed as error:
                    failures[runs[run]] = str(error)
                    print(f"{_shown(runs[run])} FAILED", flush=True)
    finally:
        if threads is None:
            os.environ.pop("OMP_NUM_THREADS", None)
        else:
            os.environ["OMP_NUM_THREADS"] = threads
    return failures


def box(title: str, body: str, kind: str, collapsed: bool = False) -> str:
    """A MyST admonition; ``collapsed`` makes it a dropdown that opens on a click."""
    classes = f"{kind} dropdown" if collapsed else kind
    return f"\n\n::::{{admonition}} {title}\n:class: {classes}\n\n{body.strip()}\n::::\n"


def _normalised(text: str) -> str:
    return " ".join(text.replace("{", "").replace("}", "").split()).lower()


def _references() -> list[tuple[str, list[str], str]]:
    """(key, titles it may be cited by, first author's surname) for every entry of the bibliography."""
    entries = []
    for key, entry in parse_file(BIBLIOGRAPHY).entries.items():
        titles = [_normalised(entry.fields[f]) for f in ("title", "shorttitle") if f in entry.fields]
        authors = entry.persons.get("author", [])
        entries.append((key, titles, _normalised(authors[0].last_names[0]) if authors else ""))
    return entries


def cite_sources(markdown: str, references: list[tuple[str, list[str], str]]) -> str:
    """Add a citation after each work the Sources section names, linking to its entry on the Sources page.

    A work is recognised by its title in italics (the bibliography's title or short title starts
    with it) together with its first author's surname earlier in the same item; an entry without
    an author by its title in plain text.
    """
    head, _, sources = markdown.partition(SOURCES)
    items = re.split(r"(?m)^(?=- )", sources)
    for n, item in enumerate(items):
        cited = set()

        def cite(match: re.Match) -> str:
            title = _normalised(match.group(1))
            before = _normalised(item[: match.start()].rsplit(";", 1)[-1])
            for key, titles, surname in references:
                if surname and surname in before and key not in cited and any(t.startswith(title) for t in titles):
                    cited.add(key)
                    return f"{match.group(0)} {{cite:p}}`{key}`"
            return match.group(0)

        item = ITALIC.sub(cite, item)
        for key, titles, surname in references:
            if not surname:
                title = r"\s+".join(map(re.escape, titles[0].split()))
                item = re.sub(rf"\A- {title}", rf"\g<0> {{cite:p}}`{key}`", item, flags=re.I)
        items[n] = item
    links = "\n\nFull references, with links to the sources that are public: [Sources](../bibliography.md)."
    return head + SOURCES + "".join(items).rstrip() + links + "\n"


def reader_markdown(cell: nbformat.NotebookNode, references) -> str:
    """A markdown cell with its grading notes moved into boxes, for the website."""
    text = cell.source
    if "algorithm" in cell.metadata.get("tags", ()):
        title = ALGORITHM_TITLE.match(text)
        return box(title.group(1).rstrip("."), text[title.end():], "algorithm")
    text = QUESTION.sub(lambda m: box(f"Question {m.group(1)} (written answer, {m.group(2)} points)",
                                      m.group(3), "question"), text)
    text = HOW_IT_WORKS.sub(lambda m: box("Doing the exercises", m.group(1), "grading", collapsed=True), text)
    text = FORBIDDEN.sub(lambda m: box("Exercise rules", m.group(0), "grading", collapsed=True), text)
    if SOURCES in text:
        text = cite_sources(text, references)
    return text.strip()


def _joined(outputs: list) -> list:
    """The outputs with each run of printed text on the same stream (stdout or stderr) in one output."""
    joined = []
    for output in outputs:
        previous = joined[-1] if joined else None
        if output.output_type == "stream" and previous and previous.output_type == "stream" \
                and previous.name == output.name:
            previous.text += output.text
        else:
            joined.append(output)
    return joined


def merged_streams(outputs: list) -> list:
    """The outputs without progress bars, each run of printed lines in one box (a training log, not a box per epoch).

    A progress bar needs a kernel to move. The course's bars are tqdm's text bars, which redraw one line
    after carriage returns and leave either a blank line or their final state when they close: the text keeps
    what a terminal would show of each line, less the bars' final lines. A widget bar (tqdm.auto's, from a
    library) is dropped. The epoch lines printed between the bars remain, in one box.
    """
    printed = _joined([output for output in outputs if WIDGET_VIEW not in output.get("data", {})])
    for output in printed:
        if output.output_type == "stream":
            output.text = FINAL_BAR.sub("", OVERWRITTEN.sub("", output.text))
    return _joined([output for output in printed if output.output_type != "stream" or output.text.strip()])


def show_diagrams_as_files(cell: nbformat.NotebookNode) -> None:
    """Point a markdown cell's diagrams at their SVG files: MyST-NB displays no attachment.

    The notebooks carry each diagram as a PNG attachment (JupyterLab displays no SVG attachment);
    book/diagrams/make_diagrams.py draws the PNG and the SVG from the same code.
    """
    cell.source = re.sub(r"\(attachment:([\w.-]+)\.png\)", r"(../diagrams/\1.svg)", cell.source)
    cell.pop("attachments", None)


def _block_end(lines: list[str], start: int) -> int:
    """The index after the indented block that follows the column-0 line ``lines[start]``."""
    end = start + 1
    while end < len(lines) and (not lines[end].strip() or lines[end][0] in " \t"):
        end += 1
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1  # blank lines after the block belong to what follows
    return end


def unguarded(source: str) -> str:
    """A demo cell without its grading guard: the code that runs on the page, as it ran.

    ``if RUN_SLOW_DEMOS:`` loses its line, its block is dedented and its ``else:`` (the "Skipped while
    grading" message) goes; ``elif RUN_SLOW_DEMOS:`` becomes the last branch (``else:``); ``RUN_SLOW_DEMOS and``
    in a condition goes (the page's run had it true).
    """
    lines = source.replace(f"{GUARD} and ", "").split("\n")
    kept, n = [], 0
    while n < len(lines):
        line = lines[n]
        if line.rstrip() in (f"if {GUARD}:", f"elif {GUARD}:"):
            end = _block_end(lines, n)
            if line.startswith("if"):
                kept += [body[4:] if body.startswith("    ") else body for body in lines[n + 1:end]]
            else:
                kept += ["else:", *lines[n + 1:end]]
            n = end
            if n < len(lines) and lines[n].rstrip() == "else:":
                n = _block_end(lines, n)  # the branch taken only while grading
            continue
        kept.append(line)
        n += 1
    return "\n".join(kept)


def _joined_tests(cells: list) -> list:
    """The cells with each run of consecutive visible-test cells as one cell: one toggle, not two to four."""
    joined = []
    for cell in cells:
        previous = joined[-1] if joined else None
        if "hide-cell" in cell.metadata.get("tags", ()) and previous is not None \
                and "hide-cell" in previous.metadata.get("tags", ()):
            previous.source += "\n\n" + cell.source
            previous.outputs = merged_streams(previous.outputs + cell.outputs)
        else:
            joined.append(cell)
    return joined


def page(notebook: Path) -> nbformat.NotebookNode:
    """The executed notebook as a reader sees it: no solutions or hidden tests, tests collapsed, notes boxed."""
    nb = executed(notebook)
    references = _references()
    resources = {}
    nb, resources = ClearSolutions(code_stub=CODE_STUB).preprocess(nb, resources)
    nb, resources = ClearHiddenTests().preprocess(nb, resources)
    cells = []
    for cell in nb.cells:
        grading = cell.metadata.pop("nbgrader", {})
        tags = cell.metadata.setdefault("tags", [])
        if cell.cell_type == "markdown" and grading.get("solution"):
            continue  # an empty written-answer cell
        if cell.cell_type == "markdown":
            show_diagrams_as_files(cell)
            cell.source = reader_markdown(cell, references)
        elif SET_UP.search(cell.source):
            continue  # the grading set-up: test helpers and the demos' guard
        elif grading.get("grade"):
            tags.append("hide-cell")  # a visible-test cell
        elif GUARD in cell.source:
            cell.source = unguarded(cell.source)
        if "remove-input" in tags:  # e.g. an earlier chapter's answers, given as a tool
            cell.source = ""
        if "outputs" in cell:
            cell.outputs = merged_streams(cell.outputs)
        cells.append(cell)
    nb.cells = _joined_tests(cells)
    nb.metadata.pop("widgets", None)
    return nb


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Make the website's chapter pages from the solution notebooks.")
    parser.add_argument("--jobs", type=int, default=2, help="notebooks executed at once (default 2)")
    args = parser.parse_args(argv)
    notebooks = [notebook for chapter in chapters() for notebook in sorted((SOLUTIONS / chapter).glob("*.ipynb"))]
    if failures := execute_all(notebooks, args.jobs):
        sys.exit("\n\n".join(failures.values()))
    PAGES.mkdir(parents=True, exist_ok=True)
    for notebook in notebooks:
        target = PAGES / notebook.name
        text = nbformat.writes(page(notebook))
        if target.is_file() and target.read_text() == text:
            continue  # an unchanged file keeps its time, so Sphinx does not read it again
        target.write_text(text)
        print(f"page book/chapters/{notebook.name} from {notebook.relative_to(REPO)}")


if __name__ == "__main__":
    main()
