"""Which answers of earlier chapters each chapter's demos use, recorded by running its solution notebook.

    python -m grading.instructor.release.earlier_answers [CHAPTER ...] [--force]   (make release runs it)

In the student release a graded function of a chapter whose answers are not released runs the function of
the same name that the running notebook defines (student.py). A demo that reaches another chapter's graded
function, directly or through the package's models, data sets and trainer, stops there unless the student
has pasted that function in. Each student notebook lists those functions at the top (notebooks.py), and this
module computes the list, once per chapter, into ``earlier_answers.json`` beside it. The chapters are mostly
earlier ones, not always: chapter 04's stacking demo runs chapter 06's ``stack``.

How: the solution notebook, with its hidden tests cleared as in the student's version, runs from top to bottom
in a kernel as a student runs it (demos included), while a trace function notes every call of a graded
function of the reference ``seqmodels``, or of code that ``student.DERIVED`` replaces by a call of one. Only
the outermost such call counts: what a graded function calls itself never runs in the student release,
where the student's own function replaces its body. Functions that the notebook itself defines (its own
chapter's answers, and the earlier answers that chapters 06, 12 and 13 hand out in locked cells) are no need:
the release finds them in the notebook. What remains, by chapter, is exactly what the demos call.

Why not a static call graph: the demos reach graded functions through objects (``Trainer(model, step)``,
``RecurrentClassifier(..., cell="gru")``, ``classification(data, ...)``), whose methods ``ast`` cannot
resolve without types, and through branches taken by their arguments; a graph over names would list every
function that any branch of any method of the same name could reach, and miss calls made through attributes.
A run records the calls themselves: what it lists was called, and what it omits was not called by the
student's run either, since the student notebook is the same code less the answers. Code paths that depend
on the machine (a GPU's CUDA graphs) are recorded as the CPU runs them, as most students run them.

The record of a chapter carries the fingerprint of its solutions and of the reference package; a chapter
whose record is older is recorded again by this command (``make earlier-answers``; ``--force``: every chapter
named). The release does not record (a run of every notebook would make ``make`` on a fresh clone twice as
long): it releases with the committed record and names the chapters whose record is older.
"""
import argparse
import copy
import importlib
import inspect
import json
import os
import sys
from pathlib import Path
from types import CodeType

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError
from nbgrader.preprocessors import ClearHiddenTests

from grading.instructor import freshness
from grading.instructor.course import REPO, SOLUTIONS, chapters

RECORD = Path(__file__).resolve().parent / "earlier_answers.json"
_REPORT = "earlier answers used: "  # the line of the notebook's last cell that carries the record

_watched: dict[CodeType, str] = {}  # in the kernel: code of a graded function (or a DERIVED) -> graded function
_used: set[str] = set()


def _function(qualified: str):
    """The object that ``seqmodels.a.b.Class.method`` names: the longest importable module, then attributes."""
    parts = qualified.split(".")
    for split in range(len(parts) - 1, 0, -1):
        try:
            target = importlib.import_module(".".join(parts[:split]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[split:]:
            target = getattr(target, attribute)
        return target
    raise ModuleNotFoundError(qualified)


def _trace(frame, event, arg):
    """sys.settrace's hook for new frames: note a graded function called from outside every graded function."""
    name = _watched.get(frame.f_code)
    if name is not None:
        caller = frame.f_back
        while caller is not None and caller.f_code not in _watched:
            caller = caller.f_back
        if caller is None:
            _used.add(name)


def start_recording() -> None:
    """In the kernel, before the notebook's cells: watch the reference's graded functions and DERIVED code."""
    import seqmodels

    from grading.instructor.release.student import DERIVED, graded_chapters  # (student.py imports notebooks.py,
    # which imports this module)
    for name in graded_chapters():
        _watched[inspect.unwrap(getattr(seqmodels, name)).__code__] = name
    for qualified, (graded, _) in DERIVED.items():
        target = inspect.unwrap(_function(qualified))
        if callable(target):  # an assignment (a table of numbers) is not called: nothing to watch
            _watched[target.__code__] = graded
    sys.settrace(_trace)


def report(namespace: dict) -> None:
    """In the kernel, after the notebook's cells: print the graded functions used that the notebook does not
    define (those it defines run in the student release as they are)."""
    sys.settrace(None)
    defined = {name for name, value in namespace.items()
               if callable(value) and getattr(value, "__module__", None) == "__main__"}
    print(_REPORT + json.dumps(sorted(_used - defined)))


def _fingerprint(chapter: str) -> str:
    return freshness.fingerprint(SOLUTIONS / chapter, REPO / "reference" / "seqmodels")


def used_in(notebook: nbformat.NotebookNode, folder: Path) -> list[str]:
    """Run ``notebook`` in a kernel in ``folder`` with the recorder: the graded functions (of any chapter) that
    its cells call through the package, outermost calls only, less those it defines itself."""
    module = "grading.instructor.release.earlier_answers"  # (this module; __name__ is __main__ under -m)
    notebook = copy.deepcopy(notebook)
    notebook.cells.insert(0, nbformat.v4.new_code_cell(f"import {module}\n{module}.start_recording()"))
    notebook.cells.append(nbformat.v4.new_code_cell(f"import {module}\n{module}.report(globals())"))
    environment = os.environ.pop("NBGRADER_EXECUTION", None)  # the demos run, as in a student's session
    try:
        NotebookClient(notebook, timeout=900, kernel_name="python3",
                       resources={"metadata": {"path": str(folder)}}).execute()
    finally:
        if environment is not None:
            os.environ["NBGRADER_EXECUTION"] = environment
    text = "".join(output.get("text", "") for output in notebook.cells[-1].outputs)
    return json.loads(text.split(_REPORT, 1)[1])


def record(chapter: str) -> dict[str, list[str]]:
    """Run the chapter's solution notebook (hidden tests cleared) with the recorder: the graded functions of
    other chapters that it uses and does not define, by chapter."""
    from grading.instructor.release.student import graded_chapters  # (as in start_recording)

    path = SOLUTIONS / chapter / f"{chapter}.ipynb"
    notebook, _ = ClearHiddenTests().preprocess(nbformat.read(path, as_version=4), {})
    try:
        used = used_in(notebook, path.parent)
    except CellExecutionError as error:
        raise RuntimeError(f"{path.relative_to(REPO)} failed while its earlier answers were recorded:\n{error}")
    chapter_of = {name: c for name, (c, _) in graded_chapters().items()}
    needs: dict[str, list[str]] = {}
    for name in used:
        if chapter_of[name] != chapter:
            needs.setdefault(chapter_of[name], []).append(name)
    return {other: sorted(names) for other, names in sorted(needs.items())}


def _records() -> dict:
    return json.loads(RECORD.read_text()) if RECORD.exists() else {}


def uses(chapter: str) -> dict[str, list[str]]:
    """The recorded graded functions of other chapters that the chapter's demos use, by chapter."""
    records = _records()
    if chapter not in records:
        raise ValueError(f"no record of chapter {chapter}'s earlier answers: run "
                         f"`python -m grading.instructor.release.earlier_answers {chapter}`")
    return records[chapter]["uses"]


def stale(chapter: str) -> bool:
    """True when the chapter's solutions or the reference changed since its record (or it has none)."""
    return _records().get(chapter, {}).get("fingerprint") != _fingerprint(chapter)


def refresh(chapter: str, force: bool = False) -> bool:
    """Record the chapter again if its solutions or the reference changed since its record; True if it did."""
    if not force and not stale(chapter):
        return False
    digest, used = _fingerprint(chapter), record(chapter)
    records = _records()  # as it is now: another chapter may have been recorded meanwhile
    records[chapter] = {"fingerprint": digest, "uses": used}
    RECORD.write_text(json.dumps(dict(sorted(records.items())), indent=1) + "\n")
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("chapters", nargs="*", metavar="CHAPTER", help="by default every chapter")
    parser.add_argument("--force", action="store_true", help="record even where the record is up to date")
    args = parser.parse_args(argv)
    for chapter in args.chapters or chapters():
        recorded = refresh(chapter, args.force)
        print(f"{chapter}: {'recorded' if recorded else 'up to date'}: {uses(chapter) or 'no earlier answers'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
