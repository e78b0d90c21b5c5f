"""Check a notebook as the grader will grade it, before you hand it in.

    python -m grading.student.selfcheck notebooks/05_lstm_gru/05_lstm_gru.ipynb

The grader does not run a notebook top to bottom. It repairs what it can against the release
(damaged or removed nbgrader metadata, deleted, edited or reordered test cells: grading.student.repair),
keeps an answer cell that reaches for what no answer needs from running (grading.student.screen), loads
every answer cell and the definitions of the other code cells (grading.student.program), and only then
runs each test cell, as the release gave it. This check does the same, with the same code, on a copy
of the notebook in a fresh kernel (slow demos skip, as they do while grading: ``NBGRADER_EXECUTION`` is
set), with the visible part of each test cell (the hidden tests run only when it is graded), and says
what each finding costs: a failing test cell its points, a written answer not written yet its points
(the grader gives an untouched one 0), a repair nothing (the grader makes it too, and tells your
instructor). Your notebook itself is not changed. Exit status 0 when nothing was found, 1 otherwise.
"""
import argparse
import ast
import copy
import os
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell

from grading.student.program import GIVEN_STATEMENTS, answer_program, grade_id, role, statements
from grading.student.repair import grade_ids, match_to_release, restore_locked_cells
from grading.student.screen import keep_from_running

NOTEBOOK_TIME_LIMIT = 600  # seconds for the whole notebook, as the course's grading command allows by default
CELL_TIME_LIMIT = 120  # seconds for one cell
# Where the release is: the student release ships a copy of each chapter's (grading.instructor.release.student),
# the course's repository has them in notebooks/
RELEASES = (Path(__file__).resolve().parent / "released", Path(__file__).resolve().parents[3] / "notebooks")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


@dataclass(frozen=True)
class Finding:
    cell: str  # the grade id of the test cell or written answer
    points: float  # what it will cost
    problem: str

    def __str__(self) -> str:
        return f"{self.cell} ({self.points:g} point{'s' * (self.points != 1)}): {self.problem}"


@dataclass
class Check:
    findings: list[Finding]  # what costs points
    repairs: list[str]  # what the grader repairs or flags, at no cost to the points (its notes, word for word)
    problems: list[str]  # what stops the whole run: a cell over the time limit, the kernel dying
    unloaded: list[str]  # answer cells that raised while loading: their tests fail (findings)
    seconds: float
    points: float  # the notebook's autograded and written points
    released: bool  # whether the release was found (else the notebook was checked against itself)


def find_release(path: Path, notebook: nbformat.NotebookNode) -> nbformat.NotebookNode | None:
    """The release the notebook was made from: by its file name, else the one sharing most of its grade ids."""
    candidates = [p for folder in RELEASES if folder.is_dir()
                  for p in sorted(folder.glob("*.ipynb")) + sorted(folder.glob("*/*.ipynb"))]
    named = [p for p in candidates if p.stem == path.stem and p.resolve() != path.resolve()]
    if named:
        return nbformat.read(named[0], as_version=4)
    own = set(grade_ids(notebook)) - {"setup"}
    releases = [nbformat.read(p, as_version=4) for p in candidates if p.resolve() != path.resolve()]
    best = max(releases, key=lambda r: len(own & set(grade_ids(r))), default=None)
    return best if best is not None and own & set(grade_ids(best)) else None


def _program(notebook, release) -> list[tuple[str, str, str]]:
    """(kind, label, source) cells in the order the grader loads and runs them."""
    locked = [("setup", grade_id(c), c.source) for c in release.cells if role(c) == "locked"]
    answers = [(kind, label, source) for label, source, kind in answer_program(notebook, release) if kind != "locked"]
    tests = [("test", grade_id(c), c.source) for c in release.cells if role(c) == "test"]
    return locked + answers + [("examples", "the release's examples", _examples(release))] + tests


def _examples(release) -> str:
    """A cell running the definitions and assignments of the release's other code cells, which the grader's tests
    see (run_examples)."""
    answers = sorted({s.name for c in release.cells if role(c) == "answer" for s in statements(c.source, (ast.FunctionDef,))})
    given = [ast.unparse(s) for c in release.cells if role(c) == "given" for s in statements(c.source, GIVEN_STATEMENTS)]
    return (f"from grading.student.selfcheck import run_examples as _run_examples\n"
            f"_run_examples(globals(), {answers!r}, {given!r})\ndel _run_examples\n")


def run_examples(namespace: dict, answers: list[str], given: list[str]) -> None:
    """Run each statement of ``given`` in ``namespace`` as the grader's checker does: with the ``answers`` out of
    reach, so that an example calling one is skipped, and a statement that fails skipped too."""
    kept = {name: namespace.pop(name) for name in answers if name in namespace}

    def out_of_reach(*args, **kwargs):
        raise RuntimeError("an example that calls an answer does not run while grading")

    namespace.update(dict.fromkeys(answers, out_of_reach))
    try:
        for statement in given:
            try:
                exec(statement, namespace)
            except Exception:  # noqa: BLE001, S110 - as in the checker: an example's failure costs nobody points
                pass
    finally:
        for name in answers:
            namespace.pop(name, None)
        namespace.update(kept)


def _error(cell) -> tuple[str, str, str] | None:
    """(ename, evalue, traceback without colours) of a run cell's error, if it raised."""
    error = next((o for o in cell.get("outputs", []) if o.output_type == "error"), None)
    return (error.ename, error.evalue, _ANSI.sub("", "\n".join(error.traceback))) if error else None


def _problem(ename: str, evalue: str, traceback: str, answers: set[str]) -> str:
    """What a test cell's error means, for the student."""
    message = f"{ename}: {evalue}".splitlines()[0]
    if ename == "NotImplementedError" or "is not implemented yet" in evalue:
        called = [name for name in re.findall(r"in (\w+)\(", traceback) if name in answers]  # the deepest answer
        said = re.match(r"(\w+) is not implemented yet", evalue)  # grading.student.checks.call's message
        named = called[-1] if called else said.group(1) if said else "an answer"
        return f"{named} is not written yet (it still raises NotImplementedError)"
    if ename == "NameError":
        return f"{message}: no cell defines it (a deleted or renamed cell, or an answer that did not load?)"
    return f"a visible test fails: {message}"


def _unwritten(notebook, release) -> list[Finding]:
    """Written answers still as the release gave them: the grader scores them 0 without asking anybody."""
    given = {grade_id(c): c.source for c in release.cells if c.cell_type == "markdown" and grade_id(c)}
    return [Finding(gid, float(c.metadata["nbgrader"].get("points", 0)),
                    "the written answer is not written yet (it is as the release gave it): it scores 0")
            for c in notebook.cells if (gid := grade_id(c)) in given and c.source.strip() == given[gid].strip()]


def check(path: Path, notebook_s: float = NOTEBOOK_TIME_LIMIT, cell_s: float = CELL_TIME_LIMIT) -> Check:
    """What the grader will make of the notebook at ``path``."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    notebook = nbformat.read(path, as_version=4)
    release = find_release(path, notebook)
    released, release, problems = release is not None, release or copy.deepcopy(notebook), []
    repairs = match_to_release(notebook, release, set(grade_ids(release)))
    notebook = restore_locked_cells(notebook, release, repairs)
    repairs += keep_from_running(notebook, release)
    program = _program(notebook, release)
    run = nbformat.v4.new_notebook(cells=[new_code_cell(source) for _, _, source in program],
                                   metadata=notebook.metadata)
    before = os.environ.get("NBGRADER_EXECUTION")
    os.environ["NBGRADER_EXECUTION"] = "autograde"  # as nbgrader sets it: the kernel inherits it, and slow demos skip
    start = time.monotonic()
    try:
        NotebookClient(run, timeout=cell_s, allow_errors=True, kernel_name="python3",
                       resources={"metadata": {"path": str(path.parent)}}).execute()
    except CellTimeoutError:
        problems.append(f"a cell ran longer than the grader's limit of {cell_s:g} s per cell")
    except DeadKernelError:
        problems.append("the kernel died (out of memory, or os._exit()): the grader would stop there too")
    finally:
        if before is None:
            os.environ.pop("NBGRADER_EXECUTION", None)
        else:
            os.environ["NBGRADER_EXECUTION"] = before
    seconds = time.monotonic() - start
    if seconds > notebook_s:
        problems.append(f"the notebook ran {seconds:.0f} s, longer than the grader's limit of {notebook_s:g} s")
    answers = {s.name for c in release.cells if role(c) == "answer" for s in statements(c.source, (ast.FunctionDef,))}
    points = {grade_id(c): float(c.metadata["nbgrader"].get("points", 0)) for c in release.cells
              if c.metadata.get("nbgrader", {}).get("grade")}
    findings, unloaded = [], []
    for (kind, label, _), cell in zip(program, run.cells):
        error = _error(cell)
        if error and kind == "setup":
            problems.append(f"the read-only cell {label} raised {error[0]}: {error[1]}: ask your instructor")
        elif error and kind == "answer":
            unloaded.append(f"{label} raised {error[0]}: {error[1]}".splitlines()[0])
        elif error and kind == "test":
            findings.append(Finding(label, points[label], _problem(*error, answers)))
    return Check(findings + _unwritten(notebook, release), repairs, problems, unloaded, seconds, sum(points.values()),
                 released)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebook", type=Path)
    parser.add_argument("--time-limit", type=float, default=NOTEBOOK_TIME_LIMIT, help="seconds for the notebook")
    parser.add_argument("--cell-time-limit", type=float, default=CELL_TIME_LIMIT, help="seconds for one cell")
    args = parser.parse_args(argv)
    if not args.notebook.is_file():
        print(f"error: no notebook {args.notebook}", file=sys.stderr)
        return 2
    print(f"Checking {args.notebook} as the grader will: answers loaded first, then each test cell as released...")
    result = check(args.notebook, args.time_limit, args.cell_time_limit)
    if not result.released:
        print(f"note: no release of {args.notebook.stem} was found here: checked against the notebook itself")
    lost = sum(f.points for f in result.findings)
    for title, lines in (("Stops the grader or goes over its limits", result.problems), ("Repaired or flagged by the grader, at no cost in "
                                                             "points (your instructor sees it)", result.repairs),
                         ("Answer cells that do not load (the tests of their functions fail)", result.unloaded),
                         (f"Costs {lost:g} of {result.points:g} points", result.findings)):
        if lines:
            print(f"{title}:\n" + "\n".join(f"  - {line}" for line in lines))
    if result.findings or result.repairs or result.problems or result.unloaded:
        return 1
    print(f"OK: checked in {result.seconds:.0f} s; every visible test passes and every written answer is written "
          "(hidden tests run when it is graded).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
