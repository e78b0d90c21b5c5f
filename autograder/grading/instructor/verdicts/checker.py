"""The trusted checker: every autograded test cell's verdict, computed where no student code runs.

    python -m grading.instructor.verdicts.checker CHAPTER NOTEBOOK --out VERDICTS.json [--cell-time-limit S] ...

The student's answer cells (and the definitions in the notebook's other cells) are loaded
into a sandboxed worker (grading.instructor.verdicts.answers); nothing else of the student's runs,
and the worker never sees a test. This process runs the instructor's notebook from
solutions/: its setup and given cells, then each test cell with its hidden tests, where each
graded function is a :class:`~grading.instructor.verdicts.answers.RemoteFunction` that evaluates the
student's function in the worker and gets plain data back. Expected values and gradients
come from the oracles and the reference package here. The hidden tests' random inputs are
drawn from seeds mixed with a secret (``--salt``) that the worker never sees.

A verdict says whether the cell passed and what the student may read: the message of a
visible check that failed, or, for a hidden one, only that it failed and its hint, never its
inputs or expected values. Where the cell's function builds on another graded function whose
own tests failed (grading.student.dependencies), the hint says to fix that one first.
"""
import argparse
import ast
import io
import json
import os
import sys
import time
from contextlib import redirect_stdout
from dataclasses import asdict, dataclass
from pathlib import Path

import nbformat

from grading.student import dependencies
from grading.student.program import (GIVEN_STATEMENTS, PRIVATE_PACKAGES, SEEDING, answer_program, grade_id, role,
                                     statements)

BEGIN_HIDDEN, END_HIDDEN = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"
LOAD_TIME_LIMIT = 60  # seconds at least for the worker to start and load the answer cells
SETUP_FAILED = 3  # the exit status when the instructor's setup failed: no verdicts, and nobody's fault
_SEEDED = ("Random", "RandomState", "default_rng")  # constructors taking a seed: random's, NumPy's
WALL_FACTOR, WALL_EXTRA_S = 4, 30  # the wall-clock backstop of a cell: 4 times its CPU time, plus 30 s
RERUN_LOCK = "grading-rerun.lock"  # in the temporary folder: the re-runs of timed-out cells take turns
_NO_GRADIENT = "does not require grad and does not have a grad_fn"  # backward() on a tensor outside autograd


@dataclass
class Verdict:
    passed: bool
    stdout: str = ""
    ename: str = ""
    evalue: str = ""


def graded_functions(solution: nbformat.NotebookNode) -> list[ast.FunctionDef]:
    """The chapter's graded functions, as the answer cells of its solution notebook define them (the
    syllabus's names and signatures): the functions the checker stands in for with the student's."""
    return [statement for cell in solution.cells if role(cell) == "answer"
            for statement in statements(cell.source, (ast.FunctionDef,))]


def _segments(source: str) -> list[tuple[bool, str]]:
    """(hidden, code) pieces of a test cell, split at the hidden-test markers."""
    pieces, hidden, lines = [], False, []
    for line in source.splitlines(keepends=True):
        if line.strip() in (BEGIN_HIDDEN, END_HIDDEN):
            pieces.append((hidden, "".join(lines)))
            hidden, lines = line.strip() == BEGIN_HIDDEN, []
        else:
            lines.append(line)
    pieces.append((hidden, "".join(lines)))
    return [(h, code) for h, code in pieces if code.strip()]


class _Salted(ast.NodeTransformer):
    """``gen.manual_seed(s)`` -> ``gen.manual_seed(__salted__(s))``, and so ``random.Random(s)``,
    ``np.random.RandomState(s)``, ``np.random.default_rng(s)`` and a helper's ``seed=s`` (the notebooks'
    ``random_layer(..., seed=s)``, which seed torch): hidden inputs the worker cannot predict."""

    def visit_Call(self, node: ast.Call) -> ast.Call:
        self.generic_visit(node)
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
        if (name in SEEDING and isinstance(node.func, ast.Attribute) or name in _SEEDED) and node.args:
            bits = [ast.Constant(32)] if name == "RandomState" else []  # NumPy's legacy seeds have 32 bits
            node.args[0] = ast.Call(ast.Name("__salted__", ast.Load()), [node.args[0], *bits], [])
        for keyword in node.keywords:
            if keyword.arg == "seed":
                keyword.value = ast.Call(ast.Name("__salted__", ast.Load()), [keyword.value, ast.Constant(32)], [])
        return node


def _compile(code: str, hidden: bool, label: str):
    tree = ast.parse(code)
    if hidden:
        tree = ast.fix_missing_locations(_Salted().visit(tree))
    return compile(tree, f"<{label}>", "exec")


class _CellOutput(io.TextIOBase):
    """Where the tests' own prints go: the current cell's buffer."""

    def __init__(self):
        self.buffer_ = io.StringIO()

    def write(self, text: str) -> int:
        return self.buffer_.write(text)

    def take(self) -> str:
        text, self.buffer_ = self.buffer_.getvalue(), io.StringIO()
        return text


class Checker:
    def __init__(self, solution: nbformat.NotebookNode, answers, cell_s: float, salt: int,
                 notebook_s: float = 0, started: float | None = None):
        from grading.student import checks  # the trusted copy: answers never run in this process

        self.solution, self.answers, self.cell_s, self.salt = solution, answers, cell_s, salt
        # the notebook's backstop (0: none), counted from ``started``: the tests not run by then fail, the others stand
        self.notebook_s = notebook_s
        self.ends = (started or time.monotonic()) + notebook_s if notebook_s else float("inf")
        self.not_checked: list[str] = []  # the test cells that the backstop stopped or kept from running
        self.calls = dependencies.graded_calls(graded_functions(solution))
        self.output = _CellOutput()
        checks._stdout = self.output
        self.namespace: dict = {"__name__": "__main__", "__salted__": self._salted}

    def _salted(self, seed, bits: int = 62) -> int:
        return (int(seed) * 0x9E3779B97F4A7C15 + self.salt) % 2**62 % 2**bits

    def _run(self, code, deadline_s: float) -> None:
        self.answers.deadline = time.monotonic() + deadline_s
        with redirect_stdout(self.output):
            exec(code, self.namespace)  # noqa: S102 - the instructor's notebook

    def prepare(self) -> None:
        """The instructor's notebook up to its tests: setup and read-only cells, definitions of the others.

        A read-only cell that fails (an import, say) raises SetupFailed: no test could pass without it.
        """
        from grading.instructor.verdicts.answers import AnswerError, RemoteFunction, SetupFailed

        self.answers.callable = False  # an example that calls an answer is skipped, not run
        for cell in self.solution.cells:
            kind = role(cell)
            if kind == "answer":
                for statement in statements(cell.source, (ast.FunctionDef,)):
                    self.namespace[statement.name] = RemoteFunction(self.answers, statement.name,
                                                                    [a.arg for a in statement.args.args])
            elif kind in ("locked", "given"):
                for statement in statements(cell.source, (ast.stmt,) if kind == "locked" else GIVEN_STATEMENTS):
                    try:
                        self._run(compile(ast.Module([statement], type_ignores=[]), "<given>", "exec"), self.cell_s)
                    except AnswerError:  # an example that calls an answer
                        pass
                    except Exception as error:  # noqa: BLE001 - the instructor's code failed: say which and why
                        if kind == "locked":
                            raise SetupFailed(f"the {grade_id(cell)} cell of the instructor's notebook raised "
                                              f"{type(error).__name__}: {_text(error)}") from error
        self.answers.callable = True
        self.output.take()
        if "matplotlib.pyplot" in sys.modules:  # figures a given cell opened
            sys.modules["matplotlib.pyplot"].close("all")

    def verdict(self, source: str, label: str) -> Verdict:
        """The cell's verdict, in a fresh answer worker; a cell that timed out is run once more, alone (one re-run
        at a time on this machine), and only a second time-out costs its points. Past the notebook's backstop,
        the verdict of a test that did not finish (:meth:`_out_of_time`)."""
        try:
            pieces = [(hidden, _compile(code, hidden, label)) for hidden, code in _segments(source)]
        except SyntaxError:  # markers inside a block: run it whole, and say nothing about what failed
            pieces = [(True, _compile(source, True, label))]
        verdict, timed_out = self._verdict(pieces, label)
        if timed_out and not self.out_of_time():
            import fcntl
            import tempfile

            with open(Path(tempfile.gettempdir()) / RERUN_LOCK, "a") as lock:
                while not self.out_of_time():  # another notebook's re-run may hold it: wait, up to the backstop
                    try:
                        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    except BlockingIOError:
                        time.sleep(0.2)
                        continue
                    verdict, timed_out = self._verdict(pieces, label)
                    break
        return self._out_of_time(label, started=True) if timed_out and self.out_of_time() else verdict

    def out_of_time(self) -> bool:
        """Whether the notebook's backstop has passed."""
        return time.monotonic() >= self.ends

    def _out_of_time(self, label: str, started: bool) -> Verdict:
        """The verdict of the test cell ``label`` that the notebook's backstop stopped (``started``) or kept from
        running."""
        self.not_checked.append(label)
        when, where = ("while this test ran", "here") if started else ("before this test ran", "in a test above")
        return Verdict(False, "", "TimeoutError", f"the notebook's time limit of {self.notebook_s:g} s ran out {when}, "
                                                  "so it earns no points; the tests checked before it keep theirs "
                                                  f"(an endless loop or a slow answer {where}?)")

    def _verdict(self, pieces: list, label: str) -> tuple[Verdict, bool]:
        """(the verdict, whether the answers ran out of time); the cell's CPU time is the worker's to count, and
        the wall clock is only a backstop (WALL_FACTOR times as long, plus WALL_EXTRA_S)."""
        from grading.instructor.verdicts.answers import AnswerTimeout, SetupFailed

        self.answers.new_cell()
        deadline, shown = min(time.monotonic() + WALL_FACTOR * self.cell_s + WALL_EXTRA_S, self.ends), ""
        for hidden, code in pieces:
            if hidden:
                self._salt_random_sources(label)
            try:
                self._run(code, max(0.0, deadline - time.monotonic()))
            except SetupFailed:  # the answers could not be reloaded: nobody's fault a verdict could blame
                raise
            except BaseException as error:  # noqa: BLE001 - every other failure is a verdict
                printed = self.output.take()
                return self._failure(error, hidden, shown + ("" if hidden else printed)), isinstance(error, AnswerTimeout)
            printed = self.output.take()
            shown += "" if hidden else printed  # what hidden tests print stays here
        return Verdict(True, shown), False

    def _salt_random_sources(self, label: str) -> None:
        """Reseed, from the salt, every random source a hidden test could draw from without seeding it itself:
        torch's global generators (CPU and CUDA), Python's and NumPy's, and every generator the notebook's
        code has bound to a name (a visible test's ``g = torch.Generator().manual_seed(1)``, which its hidden
        part goes on drawing from). Each gets its own seed, from the cell and the name: the same for every
        grading of a class, another for the next class."""
        import random
        import zlib

        import torch

        def seed(name: str, bits: int = 62) -> int:
            return self._salted(zlib.crc32(f"{label}:{name}".encode()), bits)

        torch.manual_seed(seed("torch"))
        random.seed(seed("random"))
        numpy = sys.modules.get("numpy")
        if numpy is not None:
            numpy.random.seed(seed("numpy", 32))
        for name, value in list(self.namespace.items()):
            if type(value) is torch.Generator:
                value.manual_seed(seed(name))
            elif type(value) is random.Random:
                value.seed(seed(name))
            elif numpy is not None and type(value) is numpy.random.RandomState:
                value.seed(seed(name, 32))
            elif numpy is not None and type(value) is numpy.random.Generator:
                value.bit_generator.state = type(value.bit_generator)(seed(name)).state

    def _failure(self, error: BaseException, hidden: bool, shown: str) -> Verdict:
        from grading.instructor.verdicts.answers import AnswerCrashed, AnswerError, AnswerTimeout

        if isinstance(error, AnswerTimeout):
            limit = (f"{self.cell_s:g} s of CPU time" if error.cpu else
                     f"{WALL_FACTOR * self.cell_s + WALL_EXTRA_S:g} s of waiting (a sleep or a blocked call?)")
            return Verdict(False, shown, "TimeoutError", f"your code ran longer than this test's limit of {limit}, "
                                                         "twice, the second time alone (an endless loop?)")
        if isinstance(error, AnswerCrashed):
            return Verdict(False, shown, "AnswerCrashed", str(error))
        if _NO_GRADIENT in _text(error):  # PyTorch's words for it say nothing of the answer
            return Verdict(False, shown, "NoGradient", ("a hidden test of this cell failed: " if hidden else "")
                           + "the test calls .backward() on what your function returned, but no gradient can flow "
                             "back through it: it was computed outside autograd (.detach(), .item(), .tolist(), "
                             ".numpy() or torch.tensor() of computed values)")
        if not hidden:
            return Verdict(False, shown, type(error).__name__, _text(error))
        hint = getattr(error, "hint", "")
        why = f"your function raised {error.kind}" if isinstance(error, AnswerError) else "a check failed"
        return Verdict(False, shown, "HiddenTestFailed",
                       f"a hidden test of this cell failed ({why}; its inputs are not shown)."
                       + (f"\nHint: {hint}" if hint else ""))

    def run(self) -> dict[str, Verdict]:
        self.prepare()
        verdicts, failing = {}, set()
        for cell in (c for c in self.solution.cells if role(c) == "test"):
            label = grade_id(cell)
            if self.out_of_time():
                verdicts[label] = self._out_of_time(label, started=False)
                continue
            verdict = self.verdict(cell.source, label)
            if not verdict.passed and label not in self.not_checked:
                tested = dependencies.subjects(cell.source, self.calls)
                verdict.evalue = dependencies.blamed(verdict.evalue, tested, self.calls, failing)  # "fix X first"
                failing |= tested
            verdicts[label] = verdict
        return verdicts


def _text(error: BaseException) -> str:
    try:
        return str(error)[:4000]
    except Exception:  # noqa: BLE001
        return type(error).__name__


def check(chapter: str, notebook: nbformat.NotebookNode, cell_s: float = 120, memory_mb: int = 0,
          salt: int = 0, load_s: float = LOAD_TIME_LIMIT, notebook_s: float = 0) -> dict:
    """Verdicts of every test cell of ``chapter`` for the student's ``notebook``, and how the answers loaded;
    ``notebook_s`` (0: none) is the notebook's backstop, from this call on: the test cells not checked by then
    fail with that reason, and the verdicts of those checked before stand."""
    started = time.monotonic()
    from grading.instructor.verdicts.answers import Answers
    from grading.instructor.verdicts.zygote import SHARED
    from grading.instructor.course import SOLUTIONS
    from grading.student import checks
    from grading.student.rules import FORBIDDEN, REFERENCE_PACKAGE

    solution = nbformat.read(SOLUTIONS / chapter / f"{chapter}.ipynb", as_version=4)
    before = os.environ.get("NBGRADER_EXECUTION"), checks._stdout
    os.environ["NBGRADER_EXECUTION"] = "checker"  # the notebook's slow demos stay off
    try:
        # loading imports torch before any answer runs: a short per-cell limit must not starve it
        if hasattr(os, "fork"):
            SHARED.prepare()  # every test cell's worker is a fork of the zygote (a no-op where it is ready)
        with Answers(answer_program(notebook, solution), FORBIDDEN, REFERENCE_PACKAGE, PRIVATE_PACKAGES, memory_mb,
                     load_timeout=max(load_s, cell_s), cpu_s=cell_s) as answers:
            checker = Checker(solution, answers, cell_s, salt, notebook_s, started)
            verdicts = checker.run()
            return {"verdicts": {k: asdict(v) for k, v in verdicts.items()}, "load_failures": answers.failed,
                    "not_checked": checker.not_checked,
                    "sandboxed": answers.sandboxed, "tampered": sorted(answers.tampered)}
    finally:  # as it was, for a caller in the same process (the tests)
        if before[0] is None:
            os.environ.pop("NBGRADER_EXECUTION", None)
        else:
            os.environ["NBGRADER_EXECUTION"] = before[0]
        checks._stdout = before[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("chapter")
    parser.add_argument("notebook", type=Path)
    parser.add_argument("--out", type=Path, required=True, help="where the verdicts go (JSON)")
    parser.add_argument("--cell-time-limit", type=float, default=120)
    parser.add_argument("--notebook-time-limit", type=float, default=0,
                        help="seconds for the whole notebook (0: none): the tests not checked by then fail")
    parser.add_argument("--memory-limit", type=int, default=0, help="MB of address space for the answers (0: none)")
    parser.add_argument("--salt", type=int, default=int(os.environ.get("GRADING_SALT", "0")))
    args = parser.parse_args(argv)
    os.environ.setdefault("MPLBACKEND", "Agg")
    from grading.instructor.verdicts.answers import SetupFailed

    try:
        result = check(args.chapter, nbformat.read(args.notebook, as_version=4), args.cell_time_limit,
                       args.memory_limit, args.salt, notebook_s=args.notebook_time_limit)
    except SetupFailed as error:
        print(error, file=sys.stderr)
        return SETUP_FAILED
    args.out.write_text(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
