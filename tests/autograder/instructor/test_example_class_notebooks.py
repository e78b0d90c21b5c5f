"""What the example class's students see in their notebooks: the visible tests' hints, in a real Jupyter kernel.

Each typical mistake of ``autograder/example_class/<chapter>/`` is written into a fresh student release of
the chapter and its test cells run, as a student runs them after writing the answers (the set-up, the
release's cell that gives the graph of the graded functions, the given cells' definitions, the answers, the
tests; no demo). The hints its visible tests give must be those its docstring names (``hint:``), or a
pointer to what to fix first, never one named for another student's mistake; and each hint it names
must show in the notebook too, but for those that only a hidden test gives (``hidden: <hint>``): the
notebook says what the feedback says (tests/autograder/instructor/test_example_class.py checks the feedback).
"""
import ast
import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from grading.instructor.example_class import build_submission, load_students
from grading.instructor.release.notebooks import release
from grading.instructor.verdicts.checker import role
from tests.autograder.instructor.test_example_class import POINTER

CHAPTERS = ["05_lstm_gru", "11_seq2seq", "12_transformer", "13_gpt", "14_ssm"]
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_DEFINITIONS = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef)


def _definitions(source: str) -> str:
    """A given cell's imports, functions and classes: what the tests may use, without its examples and demos."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return ""
    kept = [statement for statement in tree.body if isinstance(statement, _DEFINITIONS)]
    return ast.unparse(ast.Module(kept, type_ignores=[])) if kept else ""


def _runnable(notebook: nbformat.NotebookNode) -> list[tuple[str, str]]:
    """(grade id of a test cell, or "", code) of the cells a student runs before and with the tests."""
    cells = []
    for cell in notebook.cells:
        kind = role(cell)
        if kind in ("answer", "test", "locked") or cell.get("id") == "builds-on":
            cells.append((cell.metadata["nbgrader"]["grade_id"] if kind == "test" else "", cell.source))
        elif kind == "given" and _definitions(cell.source):
            cells.append(("", _definitions(cell.source)))
    return cells


@pytest.fixture(scope="module", params=CHAPTERS)
def notebook_hints(request, tmp_path_factory) -> tuple[str, dict[str, dict[str, list[str]]]]:
    """The chapter, and for each of its students the hints of each test cell that failed, in one kernel."""
    chapter, folder = request.param, tmp_path_factory.mktemp("release")
    release(chapter, "--no-db", directory=folder)
    students = [s for s in load_students(chapter) if s.loses and s.loses != ["everything"] or s.student_id == "correct"]
    cells, owners = [], []
    for student in students:
        submission = build_submission(student, chapter, folder / "submitted", release=folder)
        notebook = nbformat.read(submission / f"{chapter}.ipynb", as_version=4)
        for grade_id, source in [("", "%reset -f"), *_runnable(notebook)]:
            cells.append(nbformat.v4.new_code_cell(source))
            owners.append((student.student_id, grade_id))
    run = nbformat.v4.new_notebook(cells=cells, metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    NotebookClient(run, timeout=600, allow_errors=True, resources={"metadata": {"path": str(folder)}}).execute()
    hints: dict[str, dict[str, list[str]]] = {s.student_id: {} for s in students}
    for cell, (student, grade_id) in zip(run.cells, owners):
        for output in cell.get("outputs", []):
            if output.output_type == "error" and grade_id:
                text = "\n".join(_ANSI.sub("", line) for line in output.traceback)
                hints[student][grade_id] = re.findall(r"^Hint: (.*)$", text, re.MULTILINE)
    return chapter, hints


def test_the_correct_student_passes_every_visible_test(notebook_hints):
    chapter, hints = notebook_hints
    assert hints["correct"] == {}, f"{chapter}: the solution fails visible tests: {hints['correct']}"


def test_each_typical_mistake_gets_in_its_notebook_the_hints_that_name_its_cause(notebook_hints):
    chapter, hints = notebook_hints
    students = {s.student_id: s for s in load_students(chapter)}
    named = {hint for s in students.values() for hint in s.hints or ()}
    problems = []
    for student_id, cells in hints.items():
        student = students[student_id]
        own, hidden = set(student.hints or ()), set(student.hidden)
        given = [line for lines in cells.values() for line in lines]
        unnamed = [line for line in given if not POINTER.search(line) and not any(h in line for h in own)]
        foreign = sorted(h for h in named - own if any(h in line for line in given if not POINTER.search(line)))
        missing = sorted(h for h in own - hidden if not any(h in line for line in given))
        lost_silently = sorted(set(cells) - set(student.loses))
        if unnamed or foreign or missing or lost_silently:
            problems.append(f"{student_id}: unnamed {unnamed}, foreign {foreign}, missing {missing}, "
                            f"failing cells it should not lose {lost_silently}; it got {cells}")
    assert not problems, f"{chapter}:\n" + "\n".join(problems)

