"""The red team: adversarial and broken submissions graded together, with the grade and message each must get.

Each file in tests/autograder/redteam/<chapter>/ is one student (the example class's format:
``answers``, ``loses``, and ``says`` - words the notes or the feedback page must contain;
``status: failed`` where the notebook cannot be graded at all). All of them are graded in one
batch with honest controls, so a submission that breaks the harness, changes another student's
grade or earns points it should not fails this suite. No feedback page may show a line of a
hidden test. Every chapter has at least three attacks and one control.

s*: caught by the static screen (grading.instructor.screen): the cell does not run; its exercise scores 0.
r*: run, and are stopped by the layer their ``layer:`` line names:
    sandbox - the OS sandbox the answer worker runs in (grading.instructor.sandbox): no course
              files, no reference package, no other students' work, no network;
    worker  - the worker's own watch (grading.student.watch, threads included) and audit hook, which
              report forbidden calls and blocked operations as failed tests;
    checker - the trusted checker (grading.instructor.checker), where the tests, their oracles
              and the comparisons run and only plain data from the worker arrives.
c*: controls: honest answers that must keep every point, graded in the same batch.

Other lines a case may have: ``never:`` words that neither the notes nor the feedback may contain (what an
answer must not be able to show), ``markup:`` text that the feedback page's HTML may not contain as it is
(a student's markup must show escaped), ``flagged: yes`` (the instructor must be told, points or not), and
``edit:`` a change to the handed-in file beyond its answer cells: ``crlf`` (Windows line endings),
``answer-and-test GRADE_ID NEW_ID`` (that test cell also marked as an answer, with a new grade_id),
``grade-id GRADE_ID NEW_ID`` (only the grade_id changed) or ``nbgrader-metadata GRADE_ID JSON`` (that cell's
nbgrader metadata replaced by the JSON value, as a careless editor leaves it: ``"solution"``, ``null``).
"""
import html
import json
import re
from pathlib import Path

import nbformat
import pytest
from nbgrader.api import Gradebook

from grading.instructor.course import REPO, SOLUTIONS
from grading.instructor.example_class import build_submission, load_students
from grading.instructor.grade import Limits, grade, summary
from grading.instructor.verdicts.checker import _segments, role

RED_TEAM = Path(__file__).parent / "redteam"
CHAPTERS = sorted(p.name for p in RED_TEAM.iterdir() if p.is_dir())
CASES = [(chapter, s) for chapter in CHAPTERS for s in load_students(chapter, RED_TEAM)]
LAYERS = ("sandbox", "worker", "checker")
# CPU seconds per test cell: every honest answer here needs well under one, and each endless loop costs four
# of them (two test cells, each run twice); c03-waits-without-computing sleeps a little longer than this
CELL_S = 3


def _course_files() -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in [REPO / "README.md", *(REPO / "solutions").rglob("*")] if p.is_file()}


def _edit(folder: Path, spec: str) -> None:
    """Change a built submission the way its ``edit:`` line says (see the module's docstring)."""
    path = next(folder.glob("*.ipynb"))
    kind, *rest = spec.split()
    if kind == "crlf":
        notebook = nbformat.read(path, as_version=4)
        for cell in notebook.cells:
            cell.source = cell.source.replace("\n", "\r\n")
        path.write_text(json.dumps(notebook, indent=1), newline="\r\n")  # and the file's own lines
    else:
        notebook = nbformat.read(path, as_version=4)
        cell = next(c for c in notebook.cells if c.metadata.get("nbgrader", {}).get("grade_id") == rest[0])
        if kind == "answer-and-test":
            cell.metadata["nbgrader"].update(solution=True, grade_id=" ".join(rest[1:]))
        elif kind == "grade-id":
            cell.metadata["nbgrader"]["grade_id"] = " ".join(rest[1:])
        else:
            cell.metadata["nbgrader"] = json.loads(" ".join(rest[1:]))
        path.write_text(json.dumps(notebook, indent=1))  # as written: nbformat.write would refuse damaged metadata


class _Graded(dict):
    """Each chapter's red team, graded as one class the first time a test asks for it."""

    def __init__(self, tmp_path_factory, workers):
        super().__init__()
        self.tmp_path_factory, self.workers = tmp_path_factory, workers

    def __missing__(self, chapter: str):
        workdir = self.tmp_path_factory.mktemp(f"redteam-{chapter}")
        for student in load_students(chapter, RED_TEAM):
            folder = build_submission(student, chapter, workdir / "incoming")
            if "edit" in student.fields:
                _edit(folder, student.fields["edit"])
        outcomes = grade(chapter, workdir / "incoming", workdir, limits=Limits(cell_s=CELL_S), progress=False,
                         workers=self.workers)
        self[chapter] = (workdir, {o.submission.student: o for o in outcomes})
        return self[chapter]

    def items(self):
        return [(chapter, self[chapter]) for chapter in CHAPTERS]


@pytest.fixture(scope="module")
def graded(tmp_path_factory, grading_workers):
    return _Graded(tmp_path_factory, grading_workers), _course_files()


def test_the_red_team_is_at_least_thirty_strong():
    attacks = [s for _, s in CASES if not s.student_id.startswith("c")]
    assert len(attacks) >= 30, f"only {len(attacks)} adversarial submissions"


def test_every_chapter_has_attacks_and_a_control_and_every_attack_names_its_layer():
    for chapter in CHAPTERS:
        students = [s.student_id for c, s in CASES if c == chapter]
        assert sum(not s.startswith("c") for s in students) >= 3 and any(s.startswith("c") for s in students), chapter
    for chapter, student in CASES:
        if student.student_id.startswith("r"):
            assert student.fields.get("layer", "").split(" ")[0] in LAYERS, f"{chapter}/{student.student_id}"


def _hidden_lines(chapter: str) -> set[str]:
    """Lines of the chapter's hidden tests that appear nowhere else in its notebook, not even inside a longer line
    (chapter 13's hidden ``call(gpt_block, x64, full, params, 2).pow(2).sum(),`` is part of a visible line)."""
    notebook = nbformat.read(SOLUTIONS / chapter / f"{chapter}.ipynb", as_version=4)
    pieces = [piece for cell in notebook.cells if role(cell) == "test" for piece in _segments(cell.source)]
    shown = {line.strip() for hidden, code in pieces if not hidden for line in code.splitlines()}
    shown |= {line.strip() for cell in notebook.cells if role(cell) != "test" for line in cell.source.splitlines()}
    hidden = {line.strip() for hidden, code in pieces if hidden for line in code.splitlines() if len(line.strip()) > 25}
    return {line for line in hidden if not any(line in visible for visible in shown)}


def _cell_scores(workdir: Path, chapter: str, student: str) -> dict[str, tuple[float, float]]:
    with Gradebook(f"sqlite:///{workdir / 'gradebook.db'}") as gradebook:
        submission = gradebook.find_submission(chapter, student)
        return {g.name: (g.score, g.max_score) for n in submission.notebooks for g in n.grades
                if g.cell.cell_type == "code"}


def _param(chapter, student):  # a ``hole:`` line marks an attack that still succeeds: an unfixed hole, said why
    hole = student.fields.get("hole")
    marks = [pytest.mark.xfail(strict=True, reason=hole)] if hole else []
    return pytest.param(chapter, student, marks=marks, id=f"{chapter}/{student.student_id}")


@pytest.mark.parametrize("chapter, student", [_param(c, s) for c, s in CASES])
def test_each_submission_gets_exactly_the_grade_and_message_it_deserves(graded, chapter, student):
    results, _ = graded
    workdir, outcomes = results[chapter]
    outcome = outcomes[student.student_id]
    notes = " ".join(([outcome.submission.fatal] if outcome.submission.fatal else []) + outcome.submission.notes)
    page = workdir / "feedback" / student.student_id / chapter / f"{chapter}.html"
    feedback = html.unescape(re.sub(r"<[^>]+>", "", page.read_text())) if page.is_file() else ""
    assert outcome.status == student.fields.get("status", "graded"), f"{outcome.status}: {notes}"
    if outcome.status == "failed":
        assert outcome.score == 0
    else:
        scores = _cell_scores(workdir, chapter, student.student_id)
        lost = {cell for cell, (score, maximum) in scores.items() if score < maximum}
        expected = set(scores) if student.loses == ["everything"] else set(student.loses)
        assert lost == expected, f"lost {sorted(lost)}, expected {sorted(expected)} ({notes})"
        assert all(scores[cell][0] == 0 for cell in lost), f"a failing test kept points: {scores}"
    leaked = [line for line in _hidden_lines(chapter) if line in feedback]
    assert not leaked, f"the feedback shows hidden tests: {leaked[:3]}"
    says = student.fields.get("says")
    if says:
        assert says in notes or says in feedback, f"neither the notes nor the feedback say {says!r}: {notes!r}"
    never = student.fields.get("never")
    if never:
        assert never not in notes and never not in feedback, f"the notes or the feedback say {never!r}"
    markup = student.fields.get("markup")
    if markup:
        assert markup not in page.read_text(), f"the feedback page shows the student's {markup!r} as markup"
    if student.fields.get("flagged", "").startswith("yes"):
        assert outcome.submission.flagged, f"{student.student_id} was not flagged: {notes!r}"
    if student.student_id.startswith("c") and "says" not in student.fields:
        # the solution's own answers are near-copies of the reference by construction, and a control is written from
        # the same code as the attacks it controls (05_lstm_gru's c03 and r05, r09, r10), so the similarity check
        # rightly pairs them: notes, not attacks
        attacks = [n for n in outcome.submission.notes
                   if "near-copy of the reference" not in n and "answers nearly the same as" not in n]
        assert not outcome.submission.fatal and not attacks, f"an honest submission was flagged: {notes}"


def test_the_harness_survives_the_red_team_and_flags_every_attack(graded):
    results, _ = graded
    for chapter, (_, outcomes) in results.items():
        text = summary(list(outcomes.values()))
        for student, outcome in outcomes.items():
            tampering = student.startswith(("s", "r")) and "loses: everything" in (RED_TEAM / chapter / f"{student}.py").read_text()
            if student.startswith("s") or tampering:
                assert outcome.submission.flagged, f"{student} was not flagged: {text}"


def test_no_answer_changed_the_course_folder(graded):
    _, before = graded
    assert _course_files() == before, "a submission changed the course's files"
