"""The students' self-check and the grading command agree: the same points lost, in the same cells, and the same repairs.

A few chapter 01 notebooks, each damaged or unfinished in ways a student's are, are graded by the course's
command (nbgrader, the trusted checker, the sandboxed worker) and checked by ``grading.student.selfcheck``
(a kernel on the student's machine, with the visible tests only); none of their mistakes is one that
only a hidden test finds, so the two must say the same.
"""
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import pytest
from nbgrader.api import Gradebook

from grading.instructor.course import NOTEBOOKS
from grading.instructor.example_class import ExampleStudent, build_submission
from grading.instructor.grade import Limits, grade
from grading.student import selfcheck

CHAPTER = "01_tokens"
RELEASED = {c.metadata["nbgrader"]["grade_id"]: c.source
            for c in nbformat.read(NOTEBOOKS / CHAPTER / f"{CHAPTER}.ipynb", as_version=4).cells
            if "grade_id" in c.metadata.get("nbgrader", {})}


def _nbgrader(grade_id: str, value):
    """An edit: the cell's nbgrader metadata replaced by ``value``, or changed by it when it is a function."""
    def change(cells: list) -> None:
        cell = next(c for c in cells if c["metadata"].get("nbgrader", {}).get("grade_id") == grade_id)
        if callable(value):
            value(cell["metadata"]["nbgrader"])
        else:
            cell["metadata"]["nbgrader"] = value
    return change


def _add_cell(after: str | None, source: str, count: int):
    """An edit: a code cell of the student's after the graded cell ``after`` (None: after the first cell), run
    as the ``count``-th."""
    def change(cells: list) -> None:
        index = next((i for i, c in enumerate(cells) if c["metadata"].get("nbgrader", {}).get("grade_id") == after), 0)
        cells.insert(index + 1, nbformat.v4.new_code_cell(source, execution_count=count))
    return change


NOTEBOOKS_OF_THE_CLASS = {  # student: (answer cells' own text, edits of the saved file)
    "damaged": ({}, [_nbgrader("onehot", "solution"), _nbgrader("test_pad_batch_edges", None),
                     _nbgrader("test_encode_decode_unk", lambda meta: meta.update(grade_id="test_mine"))]),
    "unfinished": ({"embed": RELEASED["embed"], "written_cost_of_onehot": RELEASED["written_cost_of_onehot"]}, []),
    # not restartable top to bottom: a helper defined below the answer using it, a cell run before the ones above
    # it that fails in a fresh kernel, and a wrong answer whose test cell was edited to pass
    "out-of-order": ({"embed": "def embed(ids, E):\n    return lookup(E, ids)\n",
                      "onehot": "def onehot(ids, V):\n    return torch.zeros(*ids.shape, V)\n",
                      "test_onehot_batched": 'passed("batched one-hot codes")\n'},
                     [_add_cell(None, "print(vocabulary_size)", 5),
                      _add_cell("written_vocabulary_design", "vocabulary_size = 7\ndef lookup(E, ids):\n    return E[ids]\n",
                                4)]),
}


@pytest.fixture(scope="module")
def both(tmp_path_factory, grading_workers):
    """Each notebook's self-check, and its grade: (cells that lost points with their points lost, notes)."""
    workdir = tmp_path_factory.mktemp("agree")
    paths = {}
    for student, (cells, edits) in NOTEBOOKS_OF_THE_CLASS.items():
        folder = build_submission(ExampleStudent(student, "", "solution", [], cells=cells), CHAPTER, workdir / "in")
        path = folder / f"{CHAPTER}.ipynb"
        data = json.loads(path.read_text())
        for edit in edits:
            edit(data["cells"])
        path.write_text(json.dumps(data, indent=1))
        paths[student] = path
    # the self-checks' kernels run one after another (each sets NBGRADER_EXECUTION for its own) beside the grading
    # workers, which are processes of their own: the two halves share the machine's cores instead of taking turns
    with ThreadPoolExecutor(1) as kernels:
        checks = {student: kernels.submit(selfcheck.check, path) for student, path in paths.items()}
        outcomes = {o.submission.student: o for o in grade(CHAPTER, workdir / "in", workdir, limits=Limits(cell_s=10),
                                                           progress=False, workers=grading_workers)}
        checked = {student: check.result() for student, check in checks.items()}
    with Gradebook(f"sqlite:///{workdir / 'gradebook.db'}") as gradebook:
        lost = {student: {g.name: g.max_score - g.score for n in gradebook.find_submission(CHAPTER, student).notebooks
                          for g in n.grades if not g.needs_manual_grade and g.score < g.max_score}
                for student in NOTEBOOKS_OF_THE_CLASS}
    return checked, outcomes, lost


@pytest.mark.parametrize("student", NOTEBOOKS_OF_THE_CLASS)
def test_the_self_check_costs_the_points_the_grader_takes(both, student):
    checked, outcomes, lost = both
    check = checked[student]
    assert not check.problems and check.released, check
    assert {f.cell: f.points for f in check.findings} == lost[student], (check.findings, outcomes[student].submission.notes)
    assert check.points == outcomes[student].max_score


@pytest.mark.parametrize("student", NOTEBOOKS_OF_THE_CLASS)
def test_the_self_check_tells_the_repairs_the_grader_flags(both, student):
    checked, outcomes, _ = both
    notes = [n for n in outcomes[student].submission.notes if "near-copy of the reference" not in n]
    assert checked[student].repairs == notes


def test_what_the_self_check_says_names_the_cause(both):
    checked, _, _ = both
    said = {student: [str(f) for f in check.findings] + check.repairs for student, check in checked.items()}
    assert "test_embed_table_f2 (2 points): embed is not written yet (it still raises NotImplementedError)" in said[
        "unfinished"]
    assert any(line.startswith("written_cost_of_onehot (2 points): the written answer is not written yet")
               for line in said["unfinished"])
    assert any('"solution" instead of a dictionary' in line and "grade id 'test_mine'" in line
               for line in said["damaged"])
    assert any("test_onehot_batched" in line and "differ from the current release" in line
               for line in said["out-of-order"])
