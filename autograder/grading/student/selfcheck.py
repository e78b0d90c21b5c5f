"""Check a notebook as the grader will run it, before you hand it in.

    python -m grading.student.selfcheck notebooks/05_lstm_gru/05_lstm_gru.ipynb

Runs a copy of the notebook from top to bottom in a fresh kernel, as the grader does (slow demos
skip, as they do while grading: ``NBGRADER_EXECUTION`` is set), with the visible tests of its test
cells (the hidden tests run only when it is graded), and reports what would break at grading: cells
your session ran out of order, answers not written yet, names that no cell above defines (a deleted
or moved cell), failing visible tests, errors in other cells, and a run longer than the grader's time
limits. Your notebook itself is not changed. Exit status 0 when nothing would break, 1 otherwise.
"""
import argparse
import copy
import os
import sys
import time
from pathlib import Path

import nbformat

NOTEBOOK_TIME_LIMIT = 600  # seconds for the whole notebook, as the course's grading command allows by default
CELL_TIME_LIMIT = 120  # seconds for one cell


def out_of_order(notebook: nbformat.NotebookNode) -> list[str]:
    """Cells whose saved run came after a cell below them: the notebook ran in another order than top to bottom."""
    found, latest = [], 0
    for index, cell in enumerate(notebook.cells, 1):
        count = cell.get("execution_count") if cell.cell_type == "code" else None
        if count is None:
            continue
        if count < latest:
            found.append(f"cell {index} ({_name(cell)}) was run before a cell above it")
        latest = max(latest, count)
    return found


def _name(cell) -> str:
    first_line = cell.source.strip().splitlines()[0][:60] if cell.source.strip() else "empty"
    return cell.metadata.get("nbgrader", {}).get("grade_id") or first_line


def _kind(cell) -> str:
    meta = cell.metadata.get("nbgrader", {})
    return "answer" if meta.get("solution") else "test" if meta.get("grade") else "other"


def problems(executed: nbformat.NotebookNode) -> list[str]:
    """What the run's error outputs say would break at grading, cell by cell."""
    found = []
    for index, cell in enumerate(executed.cells, 1):
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            if output.output_type != "error":
                continue
            where, message = f"cell {index} ({_name(cell)})", f"{output.ename}: {output.evalue}".splitlines()[0]
            if output.ename == "NotImplementedError" or "is not implemented yet" in output.evalue:
                found.append(f"{where}: an answer is not written yet ({message})")
            elif output.ename == "NameError":
                found.append(f"{where}: {message}: no cell above defines it (a deleted, moved or renamed cell?)")
            elif _kind(cell) == "test":
                found.append(f"{where}: a visible test fails: {message}")
            else:
                found.append(f"{where}: raised {message}")
    return found


def run(path: Path, notebook_s: float = NOTEBOOK_TIME_LIMIT, cell_s: float = CELL_TIME_LIMIT) -> tuple[list[str], float]:
    """(what would break, seconds the run took) for the notebook at ``path``."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    notebook = nbformat.read(path, as_version=4)
    found = [f"{line}: the grader runs top to bottom, as this check does" for line in out_of_order(notebook)]
    executed = copy.deepcopy(notebook)
    for cell in executed.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    before = os.environ.get("NBGRADER_EXECUTION")
    os.environ["NBGRADER_EXECUTION"] = "validate"  # as nbgrader sets it: the kernel inherits it, and slow demos skip
    start = time.monotonic()
    try:
        NotebookClient(executed, timeout=cell_s, allow_errors=True, kernel_name="python3",
                       resources={"metadata": {"path": str(path.parent)}}).execute()
    except CellTimeoutError:
        found.append(f"a cell ran longer than the grader's limit of {cell_s:g} s per cell")
    except DeadKernelError:
        found.append("the kernel died (out of memory, or os._exit()): the grader would stop there too")
    finally:
        if before is None:
            os.environ.pop("NBGRADER_EXECUTION", None)
        else:
            os.environ["NBGRADER_EXECUTION"] = before
    seconds = time.monotonic() - start
    found += problems(executed)
    if seconds > notebook_s:
        found.append(f"the notebook ran {seconds:.0f} s, longer than the grader's limit of {notebook_s:g} s")
    return found, seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebook", type=Path)
    parser.add_argument("--time-limit", type=float, default=NOTEBOOK_TIME_LIMIT, help="seconds for the notebook")
    parser.add_argument("--cell-time-limit", type=float, default=CELL_TIME_LIMIT, help="seconds for one cell")
    args = parser.parse_args(argv)
    if not args.notebook.is_file():
        print(f"error: no notebook {args.notebook}", file=sys.stderr)
        return 2
    print(f"Running {args.notebook} from top to bottom in a fresh kernel, as the grader does...")
    found, seconds = run(args.notebook, args.time_limit, args.cell_time_limit)
    if not found:
        print(f"OK: it ran top to bottom in {seconds:.0f} s and every visible test passes "
              "(hidden tests run when it is graded).")
        return 0
    print(f"{len(found)} thing(s) would break at grading:")
    for line in found:
        print(f"  - {line}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
