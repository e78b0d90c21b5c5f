"""Mutation testing: how many wrong versions of each graded function do the chapter's tests catch?

    .venv/bin/python bench/mutation.py [CHAPTER ...] [--functions NAME ...] [--jobs 2] [--json PATH] [--list]
    make mutation MUTATION_ARGS="01_tokens --jobs 1"

Every solution region (between ``### BEGIN SOLUTION`` and ``### END SOLUTION``) of a chapter's
answer cells is parsed with ``ast`` and changed in one place at a time by the operators in
``OPERATORS``: arithmetic and comparison operators swapped, numeric constants +-1 (booleans
flipped), slice bounds moved by one or dropped, ``dim=`` arguments changed or dropped, transposes
and masks dropped, returned values replaced by None or swapped; and the sampling and subword
mistakes of issue 38: two adjacent ``if`` blocks swapped, ``log_softmax`` as the log of a softmax,
a ``min``/``max``/``clamp`` bound dropped, a tie broken by counting order, an argument not passed
on, draws from a copy of the generator. Each mutant is graded as a
submission is: the chapter's cells run in notebook order (setup and read-only cells, every answer
with the mutant in place, the test cells with their hidden tests; the demo cells, which carry no
nbgrader metadata, are left out), with NBGRADER_EXECUTION set so ``RUN_SLOW_DEMOS`` is False, and a
test cell fails when it raises. A mutant is *killed* when a test cell fails, it runs out of time or
its process dies; it *survives* when every test cell passes.

A mutant is *equivalent* (no test could kill it) when its program parses to the same tree as
the original, when it drops a slice's lower bound of 0, or when ``bench/mutation_equivalent.txt``
lists it with the reason it was judged so. The kill rate counts the other mutants only.

How it stays fast: one worker process per chapter runs the setup once, runs the notebook up to
each answer cell once, and forks a child per mutant from there (a fresh copy of every object,
so no mutant sees another's side effects); a child stops at the first failing test cell, and
is killed after ``--timeout-factor`` times the unchanged program's own time. The hidden tests
draw their inputs from the notebook's own seeds, as nbval and a notebook kernel do.
``--checker`` grades every mutant with the course's trusted checker instead
(``python -m grading.instructor.verdicts.checker``, the autograder's own verdicts, hidden tests on salted
seeds): one process per mutant, some ten times slower.
"""
import argparse
import ast
import builtins
import copy
import io
import json
import os
import re
import resource
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

# This folder holds grading.py (a benchmark): keep it off sys.path so `grading` is the course's package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from grading.instructor.course import SOLUTIONS, chapters  # noqa: E402

REVIEWED = Path(__file__).resolve().parent / "mutation_equivalent.txt"
_REGION = re.compile(r"^[ \t]*### BEGIN SOLUTION[ \t]*\n(.*?)^[ \t]*### END SOLUTION", re.MULTILINE | re.DOTALL)
MEMORY_HEADROOM = 4 << 30  # address space a mutant may add to the worker's before an allocation fails


# ---------------------------------------------------------------------------------------------- cells


@dataclass
class Cell:
    kind: str  # "setup" (setup and other read-only cells), "answer" or "test"
    grade_id: str
    source: str


def load_cells(notebook: Path) -> list[Cell]:
    """The code cells nbgrader knows (they carry its metadata), in notebook order; demo cells are left out."""
    cells = []
    for cell in json.loads(notebook.read_text())["cells"]:
        meta = cell["metadata"].get("nbgrader")
        if cell["cell_type"] != "code" or not meta:
            continue
        kind = "answer" if meta.get("solution") else "test" if meta.get("grade") else "setup"
        cells.append(Cell(kind, meta["grade_id"], "".join(cell["source"])))
    return cells


# -------------------------------------------------------------------------------------------- mutants


@dataclass
class Mutant:
    chapter: str
    cell: int  # index of the answer cell in the chapter's cells
    function: str  # the graded function the change is in
    operator: str
    line: str  # the statement the change is in, as ast.unparse writes it (its first line)
    before: str
    after: str
    source: str = field(repr=False)  # the answer cell with the change
    occurrence: int = 1  # the same change in the same statement again (a repeated sub-expression)
    equivalent: str | None = None  # why no test can kill it, when that is certain without running it

    @property
    def key(self) -> str:
        """Names the mutant in reports and in bench/mutation_equivalent.txt, whatever the line numbers and layout."""
        again = f" #{self.occurrence}" if self.occurrence > 1 else ""
        return f"{self.chapter} {self.function} | {self.line} | {self.before} -> {self.after}{again}"


_ARITHMETIC = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult, ast.FloorDiv: ast.Div,
               ast.Mod: ast.FloorDiv, ast.Pow: ast.Mult, ast.MatMult: ast.Mult, ast.BitAnd: ast.BitOr,
               ast.BitOr: ast.BitAnd}
_COMPARISON = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
               ast.NotEq: ast.Eq, ast.Is: ast.IsNot, ast.IsNot: ast.Is, ast.In: ast.NotIn, ast.NotIn: ast.In}
_DIM_KEYWORDS = ("dim", "axis")
_TRANSPOSE_ATTRIBUTES = ("T", "mT", "H", "mH")
_TRANSPOSE_METHODS = ("transpose", "t", "permute", "swapaxes", "swapdims", "movedim")
_MASK_METHODS = ("masked_fill", "masked_fill_", "masked_scatter", "masked_select")
Change = tuple[ast.AST, ast.AST]  # (node of the original tree, what replaces it)


def arithmetic(node: ast.AST) -> Iterator[Change]:
    """``+`` <-> ``-``, ``*`` <-> ``/``, ``//`` -> ``/``, ``%`` -> ``//``, ``**`` and ``@`` -> ``*``, ``&`` <-> ``|``
    (in expressions and augmented assignments); a unary minus dropped."""
    if isinstance(node, (ast.BinOp, ast.AugAssign)) and type(node.op) in _ARITHMETIC:
        yield node, _replace(node, op=_ARITHMETIC[type(node.op)]())
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        yield node, node.operand


def comparison(node: ast.AST) -> Iterator[Change]:
    """``<`` <-> ``<=``, ``>`` <-> ``>=``, ``==`` <-> ``!=``, ``is`` <-> ``is not``, ``in`` <-> ``not in``;
    ``and`` <-> ``or``; a ``not`` dropped."""
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            yield node, _replace(node, ops=[*node.ops[:i], _COMPARISON[type(op)](), *node.ops[i + 1:]])
    if isinstance(node, ast.BoolOp):
        yield node, _replace(node, op=ast.Or() if isinstance(node.op, ast.And) else ast.And())
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield node, node.operand


def constant(node: ast.AST) -> Iterator[Change]:
    """A number n becomes n + 1 and n - 1; True and False swap."""
    if isinstance(node, ast.Constant) and type(node.value) is bool:
        yield node, ast.Constant(not node.value)
    elif isinstance(node, ast.Constant) and type(node.value) in (int, float):
        yield node, ast.Constant(node.value + 1)
        yield node, ast.Constant(node.value - 1)


def slice_bound(node: ast.AST) -> Iterator[Change]:
    """Each bound of a slice ``a[i:j]`` moved by one either way, or dropped."""
    if isinstance(node, ast.Slice):
        for side in ("lower", "upper"):
            bound = getattr(node, side)
            if bound is not None and not isinstance(bound, (ast.Constant, ast.UnaryOp)):  # numbers: see constant()
                yield bound, ast.BinOp(bound, ast.Add(), ast.Constant(1))
                yield bound, ast.BinOp(bound, ast.Sub(), ast.Constant(1))
            if bound is not None:
                yield node, _replace(node, **{side: None})


def dim_argument(node: ast.AST) -> Iterator[Change]:
    """A ``dim=`` (``axis=``) argument set to 0, 1 and -1 (those it is not already), or dropped."""
    if isinstance(node, ast.Call):
        for i, keyword in enumerate(node.keywords):
            if keyword.arg in _DIM_KEYWORDS:
                for dim in (0, 1, -1):
                    if not _is_number(keyword.value, dim):
                        yield keyword.value, ast.Constant(dim)
                yield node, _replace(node, keywords=[*node.keywords[:i], *node.keywords[i + 1:]])


def transpose(node: ast.AST) -> Iterator[Change]:
    """``x.T`` (``.mT``, ``.H``, ``.mH``), ``x.transpose(...)``, ``.t()``, ``.permute(...)`` and the like -> ``x``."""
    if isinstance(node, ast.Attribute) and node.attr in _TRANSPOSE_ATTRIBUTES:
        yield node, node.value
    if _method_call(node, _TRANSPOSE_METHODS):
        yield node, node.func.value


def mask(node: ast.AST) -> Iterator[Change]:
    """A mask dropped: ``x.masked_fill(m, v)`` -> ``x``; ``torch.where(c, a, b)`` -> ``a`` and -> ``b``;
    ``~m`` -> ``m``; ``a * m``, ``a & m`` and ``a[m]`` -> ``a`` for a name ``m`` containing "mask";
    a ``mask=`` argument dropped."""
    if _method_call(node, _MASK_METHODS):
        yield node, node.func.value
    if isinstance(node, ast.Call) and _dotted(node.func) in ("torch.where", "where") and len(node.args) == 3:
        yield node, node.args[1]
        yield node, node.args[2]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
        yield node, node.operand
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.BitAnd)):
        if _names_a_mask(node.right):
            yield node, node.left
        if _names_a_mask(node.left):
            yield node, node.right
    if isinstance(node, ast.Subscript) and _names_a_mask(node.slice):
        yield node, node.value
    if isinstance(node, ast.Call):
        for i, keyword in enumerate(node.keywords):
            if keyword.arg and "mask" in keyword.arg:
                yield node, _replace(node, keywords=[*node.keywords[:i], *node.keywords[i + 1:]])


def returned(node: ast.AST) -> Iterator[Change]:
    """``return x`` -> ``return None``; ``return a, b, ...`` -> ``return b, a, ...``."""
    if isinstance(node, ast.Return) and node.value is not None and not _is_number(node.value, None):
        yield node, _replace(node, value=ast.Constant(None))
        if isinstance(node.value, ast.Tuple) and len(node.value.elts) > 1:
            first, second, *rest = node.value.elts
            yield node, _replace(node, value=_replace(node.value, elts=[second, first, *rest]))


def order(node: ast.AST) -> Iterator[Change]:
    """Two adjacent ``if`` blocks of one body swapped: filter_logits's top_k and top_p cuts the other way round."""
    for field in ("body", "orelse"):
        block = getattr(node, field, None)
        if isinstance(block, list):
            for first, second in zip(block, block[1:]):
                if isinstance(first, ast.If) and isinstance(second, ast.If):
                    both = _replace(first, end_lineno=second.end_lineno, end_col_offset=second.end_col_offset)
                    yield both, [second, first]


def unstable(node: ast.AST) -> Iterator[Change]:
    """``torch.log_softmax(x, ...)`` (``F.log_softmax``, ``x.log_softmax(...)``) -> ``torch.log(torch.softmax(x, ...))``:
    -inf where a probability underflows to 0 (logits of +-1000)."""
    if isinstance(node, ast.Call) and _dotted(node.func) in ("torch.log_softmax", "F.log_softmax"):
        softmax = _replace(node, func=ast.Attribute(node.func.value, "softmax", ast.Load()))
    elif _method_call(node, ("log_softmax",)):
        softmax = _replace(node, func=_replace(node.func, attr="softmax"))
    else:
        return
    yield node, ast.Call(ast.Attribute(ast.Name("torch", ast.Load()), "log", ast.Load()), [softmax], [])


def bound(node: ast.AST) -> Iterator[Change]:
    """A bound dropped: ``min(a, b)`` and ``max(a, b)`` -> ``a`` and -> ``b``; ``x.clamp(...)`` (``clamp_min``,
    ``clamp_max``, ``clip``) -> ``x``: a top_k above the vocabulary passed to topk, no token left by top_p."""
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("min", "max")
            and len(node.args) == 2 and not node.keywords):
        yield node, node.args[0]
        yield node, node.args[1]
    if _method_call(node, ("clamp", "clamp_min", "clamp_max", "clip")):
        yield node, node.func.value


def tie_break(node: ast.AST) -> Iterator[Change]:
    """``min(...)`` or ``max(...)`` of a generator expression -> its first item: a tie broken by the order the items
    were counted in (as ``Counter.most_common`` breaks it), not by their value."""
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("min", "max")
            and len(node.args) == 1 and isinstance(node.args[0], ast.GeneratorExp) and not node.keywords):
        yield node, ast.Call(ast.Name("next", ast.Load()), [node.args[0]], [])


def forgotten(node: ast.AST) -> Iterator[Change]:
    """An argument not passed on to a function of the notebook: the last positional one dropped, or a keyword
    (``filter_logits(logits, temperature, top_k, top_p)`` -> ``filter_logits(logits, temperature, top_k)``)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not hasattr(builtins, node.func.id):
        if len(node.args) > 1 and not isinstance(node.args[-1], ast.Starred):
            yield node, _replace(node, args=node.args[:-1])
        for i, keyword in enumerate(node.keywords):
            if keyword.arg is not None:
                yield node, _replace(node, keywords=[*node.keywords[:i], *node.keywords[i + 1:]])


def generator_copy(node: ast.AST) -> Iterator[Change]:
    """``generator=g`` -> a copy of ``g``: the draws do not advance the caller's generator, as when an answer saves
    and restores its state, so every call draws the same numbers again."""
    if isinstance(node, ast.keyword) and node.arg == "generator" and isinstance(node.value, ast.Name):
        name = node.value.id
        yield node.value, ast.parse(f"torch.Generator({name}.device).set_state({name}.get_state())", mode="eval").body


OPERATORS: dict[str, Callable[[ast.AST], Iterator[Change]]] = {
    "arithmetic": arithmetic, "comparison": comparison, "constant": constant, "slice": slice_bound,
    "dim": dim_argument, "transpose": transpose, "mask": mask, "return": returned,
    "order": order, "unstable": unstable, "bound": bound, "tie": tie_break, "argument": forgotten,
    "generator": generator_copy,
}


def _replace(node: ast.AST, **fields) -> ast.AST:
    new = copy.copy(node)
    for name, value in fields.items():
        setattr(new, name, value)
    return new


def _is_number(node: ast.AST, value) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        return value is not None and node.operand.value == -value
    return isinstance(node, ast.Constant) and node.value == value and type(node.value) is not bool


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return node.id if isinstance(node, ast.Name) else ""


def _method_call(node: ast.AST, names: tuple[str, ...]) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in names
            and _dotted(node.func.value) != "torch")  # torch.t(x) is no method of x


def _names_a_mask(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Name) and "mask" in n.id.lower() for n in ast.walk(node))


class _Source:
    """A cell's text with ast positions (1-based lines, UTF-8 byte columns) turned into string offsets."""

    def __init__(self, text: str):
        self.lines = text.splitlines(keepends=True)
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line))

    def offset(self, line: int, column: int) -> int:
        return self.starts[line - 1] + len(self.lines[line - 1].encode()[:column].decode())

    def span(self, node: ast.AST) -> tuple[int, int]:
        return self.offset(node.lineno, node.col_offset), self.offset(node.end_lineno, node.end_col_offset)


_SHOWN_WITH_PARENT = (ast.Constant, ast.Name, ast.Slice, ast.keyword, ast.Tuple, ast.UnaryOp, ast.Starred)
_ATOMS = (ast.Name, ast.Attribute, ast.Call, ast.Subscript, ast.List, ast.Dict, ast.Set, ast.ListComp, ast.Slice)


def _as_text(new: ast.AST | list[ast.stmt], indent: int = 0) -> str:
    """The replacement's source, in parentheses when it is an expression that could bind differently in place;
    statements (a list of them: ``order``) at the indentation ``indent`` of the one they replace."""
    if isinstance(new, list):
        lines = "\n".join(ast.unparse(ast.fix_missing_locations(statement)) for statement in new).splitlines()
        return "\n".join([lines[0], *(" " * indent + line if line else line for line in lines[1:])])
    text = ast.unparse(ast.fix_missing_locations(new))
    atom = isinstance(new, _ATOMS) or isinstance(new, ast.Constant) and not str(new.value).startswith("-")
    return text if isinstance(new, ast.stmt) or atom else f"({text})"


def _regions(text: str) -> list[tuple[int, int]]:
    """The (first, last) 1-based line numbers inside each solution region of a cell."""
    return [(text.count("\n", 0, m.start(1)) + 1, text.count("\n", 0, m.end(1))) for m in _REGION.finditer(text)]


def _in_order(node: ast.AST) -> Iterator[ast.AST]:
    """Every node below ``node``, parents before children, in source order; f-strings are left whole."""
    for child in ast.iter_child_nodes(node):
        yield child
        if not isinstance(child, ast.JoinedStr):
            yield from _in_order(child)


def _equivalent(old: ast.AST, new: ast.AST, mutated: str, original: str) -> str | None:
    """Why a change cannot alter what the program computes, in the cases where that is certain."""
    if ast.dump(ast.parse(mutated)) == ast.dump(ast.parse(original)):
        return "the same program"
    if isinstance(old, ast.Slice) and _is_number(old.lower, 0) and new.lower is None:
        return "a slice from 0 starts at the start"
    return None


def _described(old: ast.AST, new: ast.AST, parents: dict[int, ast.AST]) -> tuple[str, str, str]:
    """(statement, before, after) as ``ast.unparse`` writes them, so that reformatting the code keeps a
    mutant's key: the statement's first line, and the changed expression with enough around it to read
    (a number or a name alone says little)."""
    if isinstance(new, list):  # statements swapped: each named by its first line
        first = [ast.unparse(statement).splitlines()[0] for statement in new]
        return first[1], " then ".join(reversed(first)), " then ".join(first)
    statement = old
    while not isinstance(statement, ast.stmt):
        statement = parents[id(statement)]
    shown = old
    while isinstance(shown, _SHOWN_WITH_PARENT) and not isinstance(parents[id(shown)], ast.stmt):
        shown = parents[id(shown)]
    before = ast.unparse(shown)
    if shown is old:
        return ast.unparse(statement).splitlines()[0], before, ast.unparse(new)
    parent = parents[id(old)]
    for name, value in ast.iter_fields(parent):  # put the change in place for a moment, to write it out
        if value is old or isinstance(value, list) and any(item is old for item in value):
            changed = new if value is old else [new if item is old else item for item in value]
            setattr(parent, name, changed)
            try:
                after = ast.unparse(shown)
            finally:
                setattr(parent, name, value)
            return ast.unparse(statement).splitlines()[0], before, after
    raise AssertionError("a changed node is always a field of its parent")


def mutants_of(chapter: str, index: int, cell: Cell) -> list[Mutant]:
    """Every mutant of an answer cell's solution regions, one change each, in a fixed order, without repeats."""
    tree, source, regions = ast.parse(cell.source), _Source(cell.source), _regions(cell.source)
    owners = [(node.lineno, node.end_lineno, node.name) for node in tree.body
              if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and ast.get_docstring(node) is not None}
    parents = {id(child): parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
    mutants, seen, occurrences = [], {cell.source}, Counter()
    def inside(node: ast.AST) -> bool:
        return hasattr(node, "lineno") and any(first <= node.lineno and node.end_lineno <= last
                                               for first, last in regions)

    for node in _in_order(tree):
        if id(node) in docstrings:
            continue
        for operator, generate in OPERATORS.items():
            for old, new in generate(node):
                if not inside(old):  # (a statement swapped in a function's body: the body's parent starts outside)
                    continue
                start, end = source.span(old)
                text = cell.source[:start] + _as_text(new, old.col_offset) + cell.source[end:]
                if text in seen:
                    continue
                ast.parse(text)  # a mutant is always valid Python: a SyntaxError here is a bug of this tool
                seen.add(text)
                function = next((name for first, last, name in owners if first <= old.lineno <= last), cell.grade_id)
                mutant = Mutant(chapter, index, function, operator, *_described(old, new, parents), text,
                                equivalent=_equivalent(old, new, text, cell.source))
                occurrences[mutant.key] += 1
                mutant.occurrence = occurrences[mutant.key]
                mutants.append(mutant)
    return mutants


def reviewed_equivalents(path: Path = REVIEWED) -> dict[str, str]:
    """``key || reason`` lines of the reviewed list (``#`` starts a comment line)."""
    if not path.exists():
        return {}
    entries = [line.rsplit(" || ", 1) for line in path.read_text().splitlines()
               if line.strip() and not line.startswith("#")]
    return {key.strip(): reason.strip() for key, reason in entries}


# -------------------------------------------------------------------------------------------- grading


def grade_mutants(chapter: str, cells: list[Cell], changes: list[tuple[int, str | None]], jobs: int = 2,
                  timeout_factor: float = 5.0, all_tests: bool = False, checker: bool = False) -> Iterator[dict]:
    """Grade programs made from ``cells`` by replacing one cell each: ``changes`` holds (cell index, its new
    source, or None for the unchanged program), sorted by cell index. Yields one result per change, in
    order: ``{"tests": {grade_id: error message or None}, "outcome": ..., "seconds": ...}`` where the
    outcome is "passed", "failed", "timeout" or "crashed". This is the one function that runs programs:
    in one worker process (``_worker``) in the chapter's solution folder, or with ``checker`` through
    the course's trusted checker, one process per program, every test cell under the checker's limits."""
    if checker:
        yield from _checked(chapter, cells, changes, jobs)
        return
    job = {"cells": [asdict(c) for c in cells], "changes": changes, "jobs": jobs, "timeout_factor": timeout_factor,
           "all_tests": all_tests}
    env = {**os.environ, "NBGRADER_EXECUTION": "autograde-mutation", "OMP_NUM_THREADS": "1", "MPLBACKEND": "Agg",
           "PYTHONDONTWRITEBYTECODE": "1"}
    with open(os.devnull, "w") as log_sink, subprocess.Popen(
            [sys.executable, __file__, "--worker"], cwd=SOLUTIONS / chapter, env=env, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE if os.environ.get("MUTATION_DEBUG") else log_sink,
            text=True) as worker:
        worker.stdin.write(json.dumps(job))
        worker.stdin.close()
        for line in worker.stdout:
            result = json.loads(line)
            if "error" in result:
                raise RuntimeError(f"{chapter}: {result['error']}")
            yield result
        if worker.wait() != 0:
            raise RuntimeError(f"{chapter}: the mutation worker stopped (exit {worker.returncode})"
                               + (f":\n{worker.stderr.read()[-3000:]}" if worker.stderr else ""))


def grade_mutant(chapter: str, cells: list[Cell], checker: bool = False) -> dict[str, bool]:
    """Whether each test cell passes when the whole program ``cells`` runs (every test cell runs)."""
    result = next(grade_mutants(chapter, cells, [(0, None)], jobs=1, all_tests=True, checker=checker))
    return {test: error is None for test, error in result["tests"].items()}


def _checked(chapter: str, cells: list[Cell], changes: list[tuple[int, str | None]], jobs: int) -> Iterator[dict]:
    """Each program graded by ``python -m grading.instructor.verdicts.checker``, as the autograder grades a notebook."""
    import nbformat

    template = nbformat.read(SOLUTIONS / chapter / f"{chapter}.ipynb", as_version=4)
    answers = {cell.grade_id: cell.source for cell in cells if cell.kind == "answer"}

    def grade(position: int, index: int, source: str | None, folder: str) -> dict:
        notebook, replaced = copy.deepcopy(template), {**answers, cells[index].grade_id: source or cells[index].source}
        for cell in notebook.cells:
            cell.source = replaced.get(cell.metadata.get("nbgrader", {}).get("grade_id"), cell.source)
        path, out = Path(folder) / f"{position}.ipynb", Path(folder) / f"{position}.json"
        nbformat.write(notebook, path)
        begun = time.monotonic()
        try:
            done = subprocess.run([sys.executable, "-m", "grading.instructor.verdicts.checker", chapter, str(path), "--out",
                                   str(out)], env={**os.environ, "OMP_NUM_THREADS": "1"}, capture_output=True,
                                  timeout=1800, check=False)
        except subprocess.TimeoutExpired:
            return {"tests": {}, "outcome": "timeout", "seconds": round(time.monotonic() - begun, 3)}
        if done.returncode != 0:
            return {"tests": {}, "outcome": "crashed", "seconds": round(time.monotonic() - begun, 3)}
        tests = {test: None if verdict["passed"] else f"{verdict['ename']}: {verdict['evalue']}"[:300]
                 for test, verdict in json.loads(out.read_text())["verdicts"].items()}
        return {"tests": tests, "outcome": "failed" if any(tests.values()) else "passed",
                "seconds": round(time.monotonic() - begun, 3)}

    with tempfile.TemporaryDirectory() as folder, ThreadPoolExecutor(jobs) as pool:
        yield from pool.map(grade, range(len(changes)), *zip(*changes), [folder] * len(changes))


def _error_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0] if lines else ''}"[:300]


def _run_cell(cell: Cell, source: str, namespace: dict) -> str | None:
    """Run one cell as the grading kernel would (what it prints is dropped); the error it raised, if any."""
    sys.stdout = sys.stderr = io.StringIO()
    try:
        exec(compile(source, f"<cell {cell.grade_id}>", "exec"), namespace)  # noqa: S102 - the course's own cells
        return None
    except BaseException as caught:  # noqa: BLE001 - the kernel records any error and goes on with the next cell
        return _error_line(caught)
    finally:
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__


def _run_program(cells: list[Cell], start: int, source: str, namespace: dict, all_tests: bool) -> dict:
    """Cells ``start`` onwards, with cell ``start`` replaced by ``source``; stops at a failing test unless all_tests."""
    tests = {}
    for index in range(start, len(cells)):
        cell = cells[index]
        error = _run_cell(cell, source if index == start else cell.source, namespace)
        if cell.kind == "test":
            tests[cell.grade_id] = error
            if error and not all_tests:
                break
    return {"tests": tests, "outcome": "failed" if any(tests.values()) else "passed"}


def _fork(cells: list[Cell], start: int, source: str, namespace: dict, all_tests: bool) -> tuple[int, int]:
    """Run the program in a child process (a copy of everything run so far); (pid, fd its result is read from)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid:
        os.close(write)
        return pid, read
    try:
        os.close(read)
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        with open("/proc/self/statm") as statm:  # a runaway allocation fails instead of exhausting the machine
            size = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        resource.setrlimit(resource.RLIMIT_AS, (size + MEMORY_HEADROOM, hard))
        data = json.dumps(_run_program(cells, start, source, namespace, all_tests)).encode()
        while data:
            data = data[os.write(write, data):]
    finally:
        os._exit(0)


def _run_children(programs: list[tuple[int, str]], cells: list[Cell], namespace: dict, jobs: int,
                  limit: float, all_tests: bool) -> Iterator[tuple[int, dict]]:
    """Run the (start, source) programs, ``jobs`` at a time, each in a forked child; yield (position, result)."""
    waiting, running, selector = list(enumerate(programs))[::-1], {}, selectors.DefaultSelector()
    while waiting or running:
        while waiting and len(running) < jobs:
            position, (start, source) = waiting.pop()
            pid, fd = _fork(cells, start, source, namespace, all_tests)
            running[fd] = (position, pid, time.monotonic(), bytearray())
            selector.register(fd, selectors.EVENT_READ)
        deadline = min(begun + limit for _, _, begun, _ in running.values())
        ready = {key.fd for key, _ in selector.select(max(0.0, deadline - time.monotonic()))}
        for fd, (position, pid, begun, data) in list(running.items()):
            timed_out = fd not in ready and time.monotonic() >= begun + limit
            if fd in ready:
                chunk = os.read(fd, 1 << 16)
                data += chunk
                if chunk:
                    continue  # until the end of its output
            elif timed_out:
                os.kill(pid, signal.SIGKILL)
            else:
                continue
            os.waitpid(pid, 0)
            selector.unregister(fd)
            os.close(fd)
            del running[fd]
            seconds = time.monotonic() - begun
            if timed_out:
                result = {"tests": {}, "outcome": "timeout"}
            elif data:
                result = json.loads(data)
            else:  # the child died without a word (a crash of native code, the memory limit)
                result = {"tests": {}, "outcome": "crashed"}
            yield position, {**result, "seconds": round(seconds, 3)}


def _worker() -> None:
    """Grade the programs of a job (read as JSON from stdin); one JSON line per program on stdout."""
    job = json.loads(sys.stdin.read())
    cells = [Cell(**c) for c in job["cells"]]
    protocol = os.fdopen(os.dup(1), "w")
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # native code's prints must not mix with the results
    namespace = {"__name__": "__main__", "__builtins__": builtins}
    done = 0  # cells[:done] have run in this process, as they run before the cell a program changes
    changes = job["changes"]
    group_starts = [i for i, (start, _) in enumerate(changes) if i == 0 or start != changes[i - 1][0]]
    for first, end in zip(group_starts, [*group_starts[1:], len(changes)]):
        start = changes[first][0]
        for index in range(done, start):
            error = _run_cell(cells[index], cells[index].source, namespace)
            if error and cells[index].kind == "test":
                print(json.dumps({"error": f"the unchanged {cells[index].grade_id} fails: {error}"}), file=protocol)
                return
        done = start
        # the unchanged program first, alone: every mutant of this cell gets a multiple of its time
        _, baseline = next(_run_children([(start, cells[start].source)], cells, namespace, 1, 3600, True))
        if baseline["outcome"] != "passed":
            print(json.dumps({"error": f"the unchanged program fails from cell {cells[start].grade_id}: {baseline}"}),
                  file=protocol, flush=True)
            return
        limit = max(10.0, job["timeout_factor"] * baseline["seconds"])
        group = [source for _, source in changes[first:end]]
        mutated = [position for position, source in enumerate(group) if source is not None]
        results = {position: baseline for position, source in enumerate(group) if source is None}
        for position, result in _run_children([(start, group[p]) for p in mutated], cells, namespace, job["jobs"],
                                              limit, job["all_tests"]):
            results[mutated[position]] = result
        for position in range(len(group)):
            print(json.dumps(results[position]), file=protocol, flush=True)


# -------------------------------------------------------------------------------------------- report

KILLED = ("failed", "timeout", "crashed")


def chapter_mutants(chapter: str, functions: set[str] | None = None) -> tuple[list[Cell], list[Mutant]]:
    cells = load_cells(SOLUTIONS / chapter / f"{chapter}.ipynb")
    mutants = [m for i, cell in enumerate(cells) if cell.kind == "answer" for m in mutants_of(chapter, i, cell)]
    return cells, [m for m in mutants if functions is None or m.function in functions]


def run_chapter(chapter: str, functions: set[str] | None, jobs: int, timeout_factor: float, all_tests: bool,
                checker: bool, reviewed: dict[str, str], progress: bool = True) -> dict:
    """Grade every mutant of the chapter; per mutant its status (killed, survived, equivalent) and details."""
    cells, mutants = chapter_mutants(chapter, functions)
    rows, graded = [], []
    for mutant in mutants:
        row = {"key": mutant.key, "function": mutant.function, "operator": mutant.operator,
               "status": "equivalent" if mutant.equivalent else None, "equivalent_because": mutant.equivalent}
        rows.append(row)
        if not mutant.equivalent:
            graded.append((mutant, row))
    start = time.monotonic()
    results = grade_mutants(chapter, cells, [(m.cell, m.source) for m, _ in graded], jobs, timeout_factor, all_tests,
                            checker)
    for done, ((mutant, row), result) in enumerate(zip(graded, results), 1):
        failed = [test for test, error in result["tests"].items() if error]
        row.update(outcome=result["outcome"], seconds=result["seconds"], killed_by=failed[:1] or None,
                   error=result["tests"][failed[0]] if failed else None)
        if result["outcome"] in KILLED:
            row["status"] = "killed"
            if mutant.key in reviewed:
                row["note"] = "listed as equivalent in bench/mutation_equivalent.txt, yet killed"
        elif mutant.key in reviewed:
            row.update(status="equivalent", equivalent_because=reviewed[mutant.key])
        else:
            row["status"] = "survived"
        if progress:
            print(f"\r{chapter}: {done}/{len(graded)} mutants graded ({time.monotonic() - start:.0f} s)",
                  end="", file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)
    return {"chapter": chapter, "seconds": round(time.monotonic() - start, 1), "mutants": rows,
            "functions": {function: counts([r for r in rows if r["function"] == function])
                          for function in dict.fromkeys(r["function"] for r in rows)},
            "total": counts(rows)}


def counts(rows: list[dict]) -> dict:
    tally = Counter(r["status"] for r in rows)
    judged = tally["killed"] + tally["survived"]
    return {"mutants": len(rows), "killed": tally["killed"], "survived": tally["survived"],
            "equivalent": tally["equivalent"], "kill_rate": tally["killed"] / judged if judged else 1.0}


def table(reports: list[dict]) -> str:
    head = f"{'chapter':<17} {'function':<29} {'mutants':>7} {'killed':>6} {'survived':>8} {'equivalent':>10} {'kill rate':>9}"
    lines = [head, "-" * len(head)]
    for report in reports:
        for name, row in [*report["functions"].items(), ("(all)", report["total"])]:
            lines.append(f"{report['chapter'] if name == '(all)' else '':<17} {name:<29} {row['mutants']:>7} "
                         f"{row['killed']:>6} {row['survived']:>8} {row['equivalent']:>10} {row['kill_rate']:>8.1%}")
    lines.append("kill rate = killed / (killed + survived): equivalent mutants are left out")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("chapters", nargs="*", help="chapters (default: every chapter in solutions/)")
    parser.add_argument("--functions", nargs="+", help="only the mutants of these graded functions")
    parser.add_argument("--jobs", type=int, default=2, help="mutants graded at once (default 2)")
    parser.add_argument("--timeout-factor", type=float, default=5.0,
                        help="a mutant is killed after this many times the unchanged program's time (at least 10 s)")
    parser.add_argument("--all-tests", action="store_true", help="run every test cell, not only up to the first failure")
    parser.add_argument("--checker", action="store_true",
                        help="grade each mutant with the trusted checker (grading.instructor.verdicts.checker): slower, one "
                             "process per mutant, hidden tests on salted seeds")
    parser.add_argument("--target", type=float, default=0.95, help="exit 1 when a chapter's kill rate is below this")
    parser.add_argument("--list", action="store_true", help="list the mutants without grading them")
    parser.add_argument("--json", type=Path, help="also write every mutant's result to this JSON file")
    args = parser.parse_args(argv)
    functions = set(args.functions) if args.functions else None
    selected = args.chapters or chapters()
    if args.list:
        for chapter in selected:
            for mutant in chapter_mutants(chapter, functions)[1]:
                print(f"[{mutant.operator}] {mutant.key}")
        return 0
    reviewed, reports, failed = reviewed_equivalents(), [], []
    for chapter in selected:
        try:
            reports.append(run_chapter(chapter, functions, args.jobs, args.timeout_factor, args.all_tests,
                                       args.checker, reviewed))
        except RuntimeError as error:  # the unchanged notebook fails its own tests: no mutant can be judged
            failed.append(chapter)
            print(f"NOT GRADED {error}", file=sys.stderr)
    print(table(reports))
    for report in reports:
        for row in report["mutants"]:
            if row["status"] == "survived" or row.get("note"):
                print(f"{row['status'].upper()} [{row['operator']}] {row['key']}" + (f"  ({row['note']})"
                                                                                    if row.get("note") else ""))
    if functions is None:  # an entry that names no mutant any more was written for code that has changed since
        keys = {row["key"] for report in reports for row in report["mutants"]}
        for key in reviewed:
            if key.split()[0] in selected and key not in keys:
                print(f"STALE (in bench/mutation_equivalent.txt, no such mutant now: review it again) {key}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"date": time.strftime("%Y-%m-%d"), "chapters": reports}, indent=1) + "\n")
    below = [r["chapter"] for r in reports if r["total"]["kill_rate"] < args.target]
    if below:
        print(f"below the target kill rate of {args.target:.0%}: {', '.join(below)}")
    if failed:
        print(f"not graded (their unchanged notebook fails, see above): {', '.join(failed)}")
    return 1 if below or failed else 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--worker"]:
        _worker()
    else:
        sys.exit(main())
