"""What the grader loads of a notebook before any test runs, in which order: the checker's and the self-check's.

The grader never runs a notebook top to bottom: it loads the read-only cells, then every answer
cell and the definitions of the other code cells, and only then runs the tests
(grading.instructor.verdicts.checker). The self-check (grading.student.selfcheck) loads the same
program, so that the two agree on a notebook that only works in the order its cells were run.
"""
import ast

import nbformat

PRIVATE_PACKAGES = ["grading", "seqmodels"]  # never importable by answers (the sandbox does not show them)
SEEDING = ("manual_seed", "seed")  # calls whose seed a hidden test's inputs come from
DEFINITIONS = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
GIVEN_STATEMENTS = (*DEFINITIONS, ast.Assign, ast.AnnAssign, ast.AugAssign)


def role(cell) -> str:
    """'answer', 'test', 'locked' (given code the student cannot change), 'given' or 'markdown'."""
    if cell.cell_type != "code":
        return "markdown"
    meta = cell.metadata.get("nbgrader", {})
    if meta.get("solution"):
        return "answer"
    if meta.get("grade"):
        return "test"
    return "locked" if meta.get("locked") else "given"


def grade_id(cell) -> str | None:
    return cell.metadata.get("nbgrader", {}).get("grade_id")


def _without_magics(source: str) -> str:
    """IPython's ``%`` and ``!`` lines removed (they mean nothing outside a kernel)."""
    return "".join(line for line in source.splitlines(keepends=True) if not line.lstrip().startswith(("%", "!")))


def statements(source: str, kinds: tuple) -> list[ast.stmt]:
    try:
        tree = ast.parse(_without_magics(source))
    except SyntaxError:
        return []
    return [s for s in tree.body if isinstance(s, kinds) or _is_seeding(s)]


def _is_seeding(statement: ast.stmt) -> bool:
    return (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)
            and isinstance(statement.value.func, ast.Attribute) and statement.value.func.attr in SEEDING)


def _private_import(statement: ast.stmt) -> bool:
    if isinstance(statement, ast.Import):
        return any(a.name.split(".")[0] in PRIVATE_PACKAGES for a in statement.names)
    return isinstance(statement, ast.ImportFrom) and (statement.module or "").split(".")[0] in PRIVATE_PACKAGES


def answer_program(student: nbformat.NotebookNode, solution: nbformat.NotebookNode) -> list[tuple[str, str, str]]:
    """The code the worker loads: (label, source, role) chunks, the instructor's read-only cells first.

    The instructor's setup and read-only cells (without their imports of the course's
    packages, role ``locked``), then in the notebook's order each answer cell whole
    (``answer``) and only the definitions (imports, functions, classes) of every other code
    cell (``given``) - demos and examples do not run. The read-only cells load before any
    code of the student's, so that their failing is the grading environment's
    (:class:`~grading.instructor.verdicts.answers.SetupFailed`), never a student's doing.
    """
    given = {grade_id(c): c.source for c in solution.cells if role(c) == "locked" and grade_id(c)}
    answers = {grade_id(c) for c in solution.cells if role(c) == "answer"}
    chunks = []
    for index, cell in enumerate(student.cells):
        kind, gid = role(cell), grade_id(cell)
        if kind in ("markdown", "test"):
            continue
        if kind == "answer" and gid in answers:
            chunks.append((gid, _without_magics(cell.source), "answer"))
            continue
        locked = kind == "locked" and gid in given
        source, kinds = (given[gid], None) if locked else (cell.source, DEFINITIONS)
        parsed = statements(source, kinds or (ast.stmt,))
        kept = [s for s in parsed if not _private_import(s) and (kinds is None or isinstance(s, kinds))]
        if kept:
            chunks.append((gid or f"cell {index + 1}", ast.unparse(ast.Module(kept, type_ignores=[])),
                           "locked" if locked else "given"))
    return sorted(chunks, key=lambda chunk: chunk[2] != "locked")  # stable: the notebook's order otherwise
