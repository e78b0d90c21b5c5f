"""The bundled example class: typical submissions graded end to end by nbgrader.

Each file ``autograder/example_class/<chapter>/<student>.py`` describes one student:
its docstring says what the submission gets wrong, where its unchanged answers come
from (``answers: solution`` or ``answers: release``), which test cells it must
lose (``loses: ...``) and, in one ``hint: ...`` line each, a piece of every hint its
failure messages must give (``hint: none`` where none applies, as for a forbidden
shortcut, whose message says what is wrong): its feedback must give these and no hint
named for another student's bug, so that every hint is tested to point at the mistake
that caused it, and so must its notebook's visible tests, but for the hints that only a hidden
test gives, each also named in a ``hidden: ...`` line. ``# %% <grade_id>`` sections replace that answer cell. The
submission is the released notebook with those answers filled in, as a student
would hand it in.

Usage: python -m grading.instructor.example_class [--workdir DIR] [CHAPTER ...]

Every chapter is graded into one work folder (classwork/example/), as a course grades its
chapters into classwork/: one gradebook, which formgrader browses (``make formgrader
WORKDIR=classwork/example``), and each chapter's grades in ``<workdir>/<chapter>/``.
"""
import argparse
import csv
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from tqdm import tqdm

from grading.instructor.outputs import export
from grading.instructor.gradebook import database, flags
from grading.instructor import freshness
from grading.instructor.course import CLASSWORK, NOTEBOOKS, REPO, SOLUTIONS, chapters
from grading.instructor.grade import GradingWorkers, grade

CHAPTERS_AT_ONCE = 2
WORKERS = 2  # nbgrader processes, one per core: 3 or 4 graded the example class no faster on 2 cores

EXAMPLES = REPO / "autograder" / "example_class"
_CELL_MARK = re.compile(r"^# %% (\S+)\s*$", re.MULTILINE)
_SOLUTION_MARKERS = ("### BEGIN SOLUTION", "### END SOLUTION")


@dataclass
class ExampleStudent:
    student_id: str
    summary: str
    answers_from: str
    loses: list[str]  # grade ids of test cells that must score 0, or ["everything"]
    hints: list[str] | None = None  # pieces of the hints its failures must give ([] for "hint: none"); None: not said
    hidden: list[str] = field(default_factory=list)  # those of them that only hidden tests give (not the notebook)
    cells: dict[str, str] = field(default_factory=dict)
    fields: dict[str, str] = field(default_factory=dict)  # any other "key: value" line of the docstring


def load_students(chapter: str, folder: Path = EXAMPLES) -> list[ExampleStudent]:
    """The students described in ``folder/<chapter>/*.py`` (the example class, or the tests' red team)."""
    students = []
    for path in sorted((folder / chapter).glob("*.py")):
        text = path.read_text()
        doc = text.split('"""')[1].strip() if text.startswith('"""') else ""  # cells need not be valid Python
        fields = dict(re.findall(r"^(\w+):\s*(.*)$", doc, re.MULTILINE))
        parts = _CELL_MARK.split(text)
        cells = {grade_id: body.strip() + "\n" for grade_id, body in zip(parts[1::2], parts[2::2])}
        loses = fields.get("loses", "nothing").split()
        hints = re.findall(r"^hint:\s*(.*?)\s*$", doc, re.MULTILINE)
        students.append(ExampleStudent(path.stem, doc.splitlines()[0], fields.get("answers", "solution"),
                                       [] if loses == ["nothing"] else loses,
                                       [h for h in hints if h != "none"] if hints else None,
                                       re.findall(r"^hidden:\s*(.*?)\s*$", doc, re.MULTILINE), cells, fields))
    return students


def _answer_cells(notebook: nbformat.NotebookNode) -> dict[str, nbformat.NotebookNode]:
    return {c.metadata["nbgrader"]["grade_id"]: c for c in notebook.cells
            if c.metadata.get("nbgrader", {}).get("solution")}


def _without_markers(source: str) -> str:
    return "\n".join(line for line in source.splitlines() if line.strip() not in _SOLUTION_MARKERS)


def build_submission(student: ExampleStudent, chapter: str, submitted_dir: Path, release: Path = NOTEBOOKS) -> Path:
    """Write the student's notebook, made from the student version in ``release``, in nbgrader's layout:
    <submitted_dir>/<student>/<chapter>/."""
    destination = submitted_dir / student.student_id / chapter
    destination.mkdir(parents=True, exist_ok=True)
    for released in sorted((release / chapter).glob("*.ipynb")):
        notebook = nbformat.read(released, as_version=4)
        solutions = _answer_cells(nbformat.read(SOLUTIONS / chapter / released.name, as_version=4))
        for grade_id, cell in _answer_cells(notebook).items():
            if student.answers_from == "solution":
                cell.source = _without_markers(solutions[grade_id].source)
        for cell in notebook.cells:  # the student's own text, in answers or (against the rules) in other cells
            grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
            if grade_id in student.cells:
                cell.source = student.cells[grade_id]
        nbformat.write(notebook, destination / released.name)
    return destination


def grade_class(chapter: str, workdir: Path, workers: GradingWorkers | None = None,
                on_graded: Callable[[str], None] | None = None) -> Path:
    """Hand in every example submission and grade them with the course's grading command; the grades CSV."""
    incoming = workdir / "incoming"
    for student in load_students(chapter):
        build_submission(student, chapter, incoming)
    grade(chapter, incoming, workdir, force=True, progress=False, workers=workers, on_graded=on_graded)
    return flags.chapter_folder(workdir, chapter) / export.GRADES


def _inputs(chapter: str, workdir: Path) -> str:
    """Everything a chapter's grades depend on: its notebooks, its students, the grading and reference code."""
    code = [REPO / "autograder" / "grading", REPO / "reference" / "seqmodels", REPO / "requirements.txt",
            REPO / "nbgrader_config.py", REPO / "autograder" / "nbgrader_config.py"]
    return freshness.fingerprint(str(workdir.resolve()).encode(), SOLUTIONS / chapter, EXAMPLES / chapter, *code)


def _report(chapter: str, grades: Path, workdir: Path) -> str:
    summaries = {s.student_id: s.summary for s in load_students(chapter)}
    lines = [f"Example class, chapter {chapter}: {grades.relative_to(REPO) if grades.is_relative_to(REPO) else grades}"]
    with grades.open() as handle:
        lines += [f"  {row['student_id']:<16} {float(row['autograded_score']):5.1f} autograded"
                  f"  {summaries[row['student_id']]}" for row in csv.DictReader(handle)
                  if row["student_id"] in summaries]  # the class's others handed in other chapters only
    lines.append(f"  feedback: {workdir / 'feedback'}/<student>/{chapter}/*.html")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("chapters", nargs="*", help="chapters to grade (default: those with an example class)")
    parser.add_argument("--workdir", type=Path, default=CLASSWORK / "example", help="where submissions and grades go")
    parser.add_argument("--force", action="store_true", help="grade again chapters unchanged since last time")
    args = parser.parse_args()
    stale = {}
    for chapter in args.chapters or [c for c in chapters() if (EXAMPLES / c).is_dir()]:
        step, digest = f"example-class-{chapter}", _inputs(chapter, args.workdir)
        grades = flags.chapter_folder(args.workdir, chapter) / export.GRADES
        if not args.force and freshness.unchanged(step, digest, grades):
            print(f"Example class, chapter {chapter}: unchanged since it was last graded ({args.workdir / chapter})")
        else:
            stale[chapter] = (step, digest)
    if not stale:
        return
    # Chapters are graded CHAPTERS_AT_ONCE at a time by one set of workers: one chapter's steps that use a
    # single core (its release, screening, export) overlap another's grading, and no worker starts twice.
    notebooks = sum(len(load_students(chapter)) for chapter in stale)
    args.workdir.mkdir(parents=True, exist_ok=True)
    with database.opened(database.url(args.workdir)):  # the gradebook's tables made once, not by two chapters at once
        pass
    with GradingWorkers(WORKERS) as workers, ThreadPoolExecutor(CHAPTERS_AT_ONCE) as pool, \
            tqdm(total=notebooks, desc=f"grading the example class ({len(stale)} chapters)", unit="notebook") as bar:
        graded = {pool.submit(grade_class, chapter, args.workdir, workers, lambda _: bar.update()): chapter
                  for chapter in stale}
        for future in as_completed(graded):
            chapter = graded[future]
            freshness.record(*stale[chapter])
            bar.write(_report(chapter, future.result(), args.workdir))


if __name__ == "__main__":
    main()
