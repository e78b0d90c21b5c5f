"""A static screen of answer cells for attempts to tamper with grading.

Before a submission runs, every answer cell is parsed and checked for what no answer to a
course exercise needs and what could change how it is graded: dynamic code (``exec``),
reaching into the interpreter (``sys``, frames, ``gc``, dunder attributes), patching the
libraries or the test helpers, other processes, files and the network. A cell that does is
not run; its exercise scores 0 and the instructor sees why (they can override the grade).

The screen is best-effort and comes first: scores are decided by the trusted checker
(grading.instructor.verdicts.checker), which runs the answers only in the sandboxed worker, where an
audit hook blocks the same operations when they are reached some other way.
"""
import ast
from dataclasses import dataclass

import nbformat

from grading.student.repair import grade_ids, is_locked
from grading.student.rules import REFERENCE_PACKAGE

# Modules an answer may not import: each gives access to the interpreter, other processes,
# files, the network, or the grader itself.
DANGEROUS_MODULES = frozenset({
    "asyncio", "builtins", "code", "codeop", "ctypes", "gc", "grading", "importlib", "inspect", "IPython",
    "ipykernel", "marshal", "multiprocessing", "nbgrader", "os", "pathlib", "pickle", "pty", "runpy", "shutil",
    "signal", "socket", "sqlite3", "subprocess", "sys", "threading", "traceback", "types", "urllib", "requests",
    "http", "io", "tempfile", "glob", "fnmatch", "zmq", "jupyter_client", "dill", "cloudpickle", "joblib",
})
# Built-in functions that run or reach code by name.
DANGEROUS_CALLS = frozenset({
    "exec", "eval", "compile", "__import__", "globals", "locals", "vars", "open", "breakpoint", "get_ipython",
    "setattr", "delattr", "exit", "quit",
})
# Attribute names that lead to modules, frames or code objects (e.g. torch.sys.modules).
DANGEROUS_ATTRIBUTES = frozenset({
    "sys", "os", "builtins", "modules", "importlib", "ctypes", "gc", "inspect", "subprocess", "signal", "socket",
    "pickle", "shutil", "io", "_getframe", "f_globals", "f_locals", "f_back", "f_builtins", "f_code", "tb_frame",
    "tb_next", "gi_frame", "cr_frame", "ag_frame", "gi_code", "func_globals", "system", "popen", "kill", "_exit",
    "settrace", "setprofile", "addaudithook", "load", "loads", "user_ns", "user_global_ns",
})
# Dunder attributes an answer may use: the ordinary protocol methods of its own classes.
ALLOWED_DUNDERS = frozenset({
    "__init__", "__call__", "__len__", "__getitem__", "__setitem__", "__iter__", "__next__", "__repr__", "__str__",
    "__name__", "__doc__", "__post_init__", "__contains__", "__enter__", "__exit__", "__version__",
})
# Names the setup cell and the visible tests use in a student's own runs: an answer that rebinds them is flagged.
RESERVED_NAMES = frozenset({"call", "expect_equal", "expect_tensor", "passed", "ExerciseFailure",
                            "RUN_SLOW_DEMOS"})
# Module names from the setup cell; importing the same module again is fine.
RESERVED_MODULES = {"torch": "torch", "np": "numpy"}


@dataclass(frozen=True)
class Finding:
    line: int
    problem: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.problem}"


def _root(name: str | None) -> str:
    return (name or "").split(".")[0]


def _chain_root(node: ast.expr) -> str | None:
    """``torch`` for ``torch.nn.functional.one_hot``."""
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


class _Screen(ast.NodeVisitor):
    def __init__(self, modules: set[str]) -> None:
        self.findings: list[Finding] = []
        self.modules = modules  # names bound to modules: the setup cell's and this cell's imports

    def flag(self, node: ast.AST, problem: str) -> None:
        self.findings.append(Finding(getattr(node, "lineno", 0), problem))

    def _binds(self, node: ast.AST, name: str, module: str | None = None) -> None:
        if name in RESERVED_NAMES or (name in RESERVED_MODULES and module != RESERVED_MODULES[name]):
            self.flag(node, f"redefines `{name}`, which the setup cell and the tests use")

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if _root(alias.name) == REFERENCE_PACKAGE:
                self.flag(node, f"imports the reference package `{alias.name}`; write the answer yourself")
            elif _root(alias.name) in DANGEROUS_MODULES:
                self.flag(node, f"imports `{alias.name}`, which answers may not use")
            self._binds(node, alias.asname or _root(alias.name), alias.name if alias.asname else _root(alias.name))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if _root(node.module) == REFERENCE_PACKAGE:
            self.flag(node, f"imports from the reference package `{node.module}`; write the answer yourself")
        elif node.level or _root(node.module) in DANGEROUS_MODULES:
            self.flag(node, f"imports from `{'.' * node.level}{node.module or ''}`, which answers may not use")
        for alias in node.names:
            if alias.name == "*":
                self.flag(node, f"imports * from `{node.module}`, which could replace the tests' names")
            else:
                self._binds(node, alias.asname or alias.name, f"{node.module}.{alias.name}")
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if node.id in DANGEROUS_CALLS or node.id.startswith("__") and node.id not in ALLOWED_DUNDERS:
            self.flag(node, f"uses `{node.id}`, which answers may not use")
        elif isinstance(node.ctx, (ast.Store, ast.Del)):
            self._binds(node, node.id)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr in DANGEROUS_ATTRIBUTES or node.attr.startswith("__") and node.attr not in ALLOWED_DUNDERS:
            self.flag(node, f"uses the attribute `.{node.attr}`, which answers may not use")
        elif isinstance(node.ctx, (ast.Store, ast.Del)) and _chain_root(node) in self.modules | RESERVED_NAMES:
            # `torch.allclose = ...`: changing a library or a helper for everybody who uses it
            self.flag(node, f"changes `{ast.unparse(node)}`, a library or helper the tests use")
        self.generic_visit(node)

    def visit_Global(self, node: ast.Global) -> None:
        for name in node.names:
            self._binds(node, name)

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self._binds(node, node.name)
        if node.name.startswith("__") and node.name not in ALLOWED_DUNDERS:
            self.flag(node, f"defines `{node.name}`, which could change how results are compared")
        self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._binds(node, node.name)
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        # getattr(torch, "__dict__") and friends: a dunder or an interpreter name spelled as a string
        if isinstance(node.value, str) and node.value.isidentifier() and (node.value.startswith("__") and node.value
                                                                           not in ALLOWED_DUNDERS | {"__main__"}
                                                                           or node.value in {"sys", "modules"}):
            self.flag(node, f"spells out `{node.value}`, which answers may not use")


def _ipython_free(source: str) -> str:
    """The cell without IPython's magics and shell escapes, which are flagged separately."""
    return "\n".join("pass" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines())


def screen(source: str) -> list[Finding]:
    """What in this answer cell could tamper with grading (empty when nothing)."""
    findings = [Finding(number, "uses an IPython magic or shell command (% or !), which answers may not use")
                for number, line in enumerate(source.splitlines(), 1) if line.lstrip().startswith(("%", "!"))]
    try:
        tree = ast.parse(_ipython_free(source))
    except SyntaxError:
        return findings  # it fails when it runs, with Python's own message
    imported = {alias.asname or _root(alias.name) for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {alias.asname or alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                 for alias in node.names}
    visitor = _Screen(imported | set(RESERVED_MODULES))
    visitor.visit(tree)
    unique = {(f.line, f.problem): f for f in [*findings, *visitor.findings]}
    return sorted(unique.values(), key=lambda f: f.line)


def screened_cells(notebook, release) -> list[tuple[nbformat.NotebookNode, str]]:
    """The code cells the grader screens, with where each is: answers and added cells, not the release's own."""
    locked = {gid for gid in grade_ids(release) if is_locked(release, gid)}
    released_code = {c.source for c in release.cells if c.cell_type == "code"}  # demos may use the reference
    return [(cell, f"cell {gid}" if gid else "a cell added to the notebook") for cell in notebook.cells
            if cell.cell_type == "code" and (gid := cell.metadata.get("nbgrader", {}).get("grade_id")) not in locked
            and not (cell.source in released_code and not gid)]


def keep_from_running(notebook, release) -> list[str]:
    """Make each screened cell with a finding raise, saying why, instead of running; a note for each."""
    notes = []
    for cell, where in screened_cells(notebook, release):
        findings = screen(cell.source)
        if findings:
            reason = (f"The grader did not run this cell: {findings[0]} of your answer. This exercise scores 0; "
                      "remove that and hand in again, or ask your instructor.")
            cell.source = f"raise RuntimeError({reason!r})\n" + cell.source
            notes.append(f"tampering suspected in {where}, not run: " + "; ".join(map(str, findings[:3])))
    return notes
