"""Grades per chapter: one row per student of the class, saying what is final and what is not.

For a chapter, ``<workdir>/<chapter>/`` gets three files (and ``flags.json``, grading.instructor.gradebook.flags):

``grades.csv``
    A row per student of the class: every student in nbgrader's gradebook, which holds
    everyone who handed in any chapter so far and everyone added with ``nbgrader db student
    add`` or ``import`` (import the roster to list those who never handed anything in).
    nbgrader's own columns (``student_id`` ... ``raw_score``, ``late_submission_penalty``,
    ``score``, ``max_score``) and ``status``, ``autograded_score`` (the test cells, with any
    override made in formgrader), ``written_score`` (the written answers graded by hand),
    ``awaiting_manual_points`` (the points of written answers not graded yet), ``to_review_points``
    (cells graded by hand whose answer changed since: written answers, and test cells whose score was
    overridden; the grade is kept and counted, and awaits review, grading.instructor.gradebook.regrade),
    ``flagged``
    (nbgrader's flag: ``yes`` or blank) and ``flags`` (the reasons, from flags.json). A student
    without a hand-in has blank scores, never 0.
``canvas.csv``, ``moodle.csv``
    The final scores (after the late penalty) in the shape the LMS imports: Canvas's gradebook
    import (``Student``, ``ID``, ``SIS User ID``, ``SIS Login ID``, ``Section``, then a column
    named after the chapter, with Canvas's ``Points Possible`` row first), keyed by the Canvas
    user id that Canvas's download names carry and by the SIS ids of a roster; Moodle's CSV grade
    import (``First name``, ``Last name``, ``ID number``, ``Email address``, as Moodle's own
    export names them, and a column named after the chapter), keyed by the ID number and e-mail
    of a roster (grading.instructor.gradebook.roster). They hold only rows whose score is final,
    ``graded`` and ``failed``: a student awaiting manual grading or without a hand-in is left
    out, so that an import never overwrites a grade in the LMS with a partial or a missing one;
    so is a student the LMS could not match, and :func:`unmatched` says who and what to do.

``status`` is one of

- ``graded``: every cell has its score;
- ``awaiting manual grading``: written answers are not graded yet (``awaiting_manual_points``);
- ``to review: written answers changed since they were graded`` (``to_review_points``);
- ``to review: answers changed since a test cell's score was set by hand`` (an override in formgrader;
  ``to_review_points``);
- ``not graded yet``: handed in, but autograding did not finish (run the grading command again);
- ``failed: <why>``: the hand-in could not be graded, and scores 0;
- ``not handed in``;

followed, for a hand-in after the due date, by ``, late by <H> h`` and the points it lost
(``, penalty <P>``) if the chapter's rule takes any (grading.instructor.gradebook.deadlines).

:class:`ChapterExport` is this course's nbgrader export plugin (``c.ExportApp.plugin_class``):
plain ``nbgrader export`` writes these files for every chapter with a hand-in
(``--assignment`` chooses), into ``<chapter>/`` next to the gradebook, or under the folder
``--to`` names. ``--exporter=nbgrader.plugins.CsvExportPlugin`` gives nbgrader's single CSV of
every chapter instead.
"""
import csv
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from nbgrader.api import Gradebook, MissingEntry
from nbgrader.plugins import ExportPlugin

from grading.instructor.gradebook import database, flags, roster

GRADED, AWAITING, TO_REVIEW, OVERRIDE_TO_REVIEW, NOT_GRADED, FAILED, NOT_HANDED_IN = (
    "graded", "awaiting manual grading", "to review: written answers changed since they were graded",
    "to review: answers changed since a test cell's score was set by hand", "not graded yet", "failed",
    "not handed in")
FINAL = (GRADED, FAILED)  # the states whose score an LMS gets
_CANVAS_IDS = ("lms_user_id", "sis_user_id", "sis_login_id")
GRADES, CANVAS, MOODLE = "grades.csv", "canvas.csv", "moodle.csv"
_COLUMNS = ["student_id", "last_name", "first_name", "email", "assignment", "status", "timestamp", "duedate",
            "autograded_score", "written_score", "awaiting_manual_points", "to_review_points", "raw_score",
            "late_submission_penalty",
            "score", "max_score", "flagged", "flags"]


@dataclass
class Row:
    """One student's grades for one chapter (None where there is nothing to say)."""
    student_id: str
    last_name: str | None
    first_name: str | None
    email: str | None
    max_score: float
    state: str = NOT_HANDED_IN
    failure: str | None = None
    timestamp: datetime | None = None
    seconds_late: float = 0.0
    autograded: float | None = None
    written: float | None = None
    awaiting: float | None = None
    to_review: float | None = None
    raw: float | None = None
    penalty: float | None = None
    score: float | None = None
    flagged: bool = False
    flags: list[str] = field(default_factory=list)
    lms: dict[str, str | None] = field(default_factory=dict)  # ids the LMS matches by (gradebook.roster)

    @property
    def status(self) -> str:
        text = f"{FAILED}: {self.failure}" if self.state == FAILED else self.state
        if self.seconds_late > 0:
            text += f", late by {self.seconds_late / 3600:.1f} h"
            if self.penalty:
                text += f", penalty {self.penalty:g}"
        return text

    @property
    def name(self) -> str:
        """"Last, First" as LMSs sort students, or the student id when the gradebook has no name."""
        return ", ".join(part for part in (self.last_name, self.first_name) if part) or self.student_id


def rows(gradebook: Gradebook, chapter: str) -> list[Row]:
    """Every student's row for ``chapter``, by student id."""
    maximum = gradebook.find_assignment(chapter).max_score
    records, rosters = flags.load(gradebook, chapter), roster.load(gradebook)
    result = []
    for student in sorted(gradebook.students, key=lambda s: s.id):
        row = Row(student.id, student.last_name, student.first_name, student.email, maximum)
        row.lms = {**rosters.get(student.id, {}), "lms_user_id": student.lms_user_id}
        try:
            submission = gradebook.find_submission(chapter, student.id)
        except MissingEntry:
            result.append(row)
            continue
        record = records.get(student.id, {})
        row.flags, row.failure = record.get("flags", []), record.get("failed")
        row.flagged = any(notebook.flagged for notebook in submission.notebooks)
        row.timestamp, row.seconds_late = submission.timestamp, submission.total_seconds_late
        if row.failure:
            row.state = FAILED
            row.autograded = row.written = row.awaiting = row.to_review = row.raw = row.penalty = row.score = 0.0
        else:
            _score(row, submission)
        result.append(row)
    return result


def _score(row: Row, submission) -> None:
    """Fill in the points of a hand-in that was not refused, and its state."""
    grades = [grade for notebook in submission.notebooks for grade in notebook.grades]
    answers = {cell.name for notebook in submission.notebooks for cell in notebook.notebook.solution_cells}
    tests = [grade for grade in grades if grade.name not in answers]
    row.autograded = sum((grade.score for grade in tests), 0.0)
    row.written = sum((grade.score for grade in grades if grade.name in answers), 0.0)
    # a grade given by hand and marked for review (its answer changed since, gradebook.regrade) is kept and counted
    row.awaiting = sum((g.max_score for g in grades if g.needs_manual_grade and g.manual_score is None), 0.0)
    review = [g for g in grades if g.needs_manual_grade and g.manual_score is not None]
    row.to_review = sum((g.max_score for g in review), 0.0)
    row.raw, row.penalty = row.autograded + row.written, submission.late_submission_penalty or 0.0
    row.score = max(0.0, row.raw - row.penalty)
    if any(grade.auto_score is None and grade.manual_score is None for grade in tests):
        row.state = NOT_GRADED
    else:
        written_review = any(g.name in answers for g in review)
        row.state = (AWAITING if row.awaiting else TO_REVIEW if written_review else OVERRIDE_TO_REVIEW if review
                     else GRADED)


def _text(value) -> str:
    if value is None:
        return ""
    return str(round(value, 2)) if isinstance(value, float) else str(value)


def write(folder: Path, chapter: str, duedate: datetime | None, chapter_rows: list[Row],
          canvas_column: str | None) -> list[Path]:
    """grades.csv, canvas.csv and moodle.csv of the chapter in ``folder``; their paths. ``canvas_column``: the
    chapter's column in Canvas's grade export, ``Name (id)`` (gradebook.roster), without which Canvas's import
    creates an assignment named after the chapter."""
    folder.mkdir(parents=True, exist_ok=True)
    final = [row for row in chapter_rows if row.state in FINAL]
    tables = {
        GRADES: (_COLUMNS, [[row.student_id, row.last_name, row.first_name, row.email, chapter, row.status,
                             row.timestamp, duedate, row.autograded, row.written, row.awaiting, row.to_review, row.raw,
                             row.penalty, row.score, row.max_score, "yes" if row.flagged else "",
                             "; ".join(row.flags)] for row in chapter_rows]),
        # Canvas matches a row by ID (its user id), else by SIS User ID or SIS Login ID; the row under the
        # header gives the points of a new assignment, as Canvas's own export writes it
        CANVAS: (roster.CANVAS_HEADER + [canvas_column or chapter],
                 [["    Points Possible", "", "", "", "", chapter_rows[0].max_score if chapter_rows else ""]]
                 + [[row.name, *(row.lms.get(key) for key in _CANVAS_IDS), row.lms.get("section"), row.score]
                    for row in final if _canvas_id(row)]),
        # Moodle maps the user from a column chosen at import: the ID number or the e-mail address
        MOODLE: (["First name", "Last name", "ID number", "Email address", chapter],
                 [[row.first_name, row.last_name, row.lms.get("id_number"), row.email, row.score]
                  for row in final if row.email or row.lms.get("id_number")]),
    }
    for name, (header, body) in tables.items():
        with (folder / name).open("w", newline="") as handle:
            table = csv.writer(handle)
            table.writerow(header)
            table.writerows([_text(value) for value in line] for line in body)
    return [folder / name for name in tables]


def _canvas_id(row: Row) -> bool:
    return any(row.lms.get(key) for key in _CANVAS_IDS)


def unmatched(chapter_rows: list[Row], chapter: str, canvas_column: str | None) -> list[str]:
    """Who the LMS files leave out: final scores the LMS could not match (and what to give), and scores not final;
    and, without ``canvas_column``, that Canvas would import the scores as a new assignment."""
    said = []
    final = [row for row in chapter_rows if row.state in FINAL]
    canvas = [row.student_id for row in final if not _canvas_id(row)]
    if canvas:
        said.append(f"{CANVAS} leaves out {len(canvas)} student(s) without a Canvas user id or SIS id "
                    f"({_some(canvas)}): grade Canvas's download of the hand-ins (its file names carry the user "
                    "id), or give --roster with Canvas's grade export (Grades -> Export)")
    if canvas_column is None and any(_canvas_id(row) for row in final):
        said.append(f"{CANVAS}'s column {chapter} carries no Canvas assignment id, so Canvas's import would create "
                    f"a new assignment: give --roster with Canvas's grade export (Grades -> Export) once the "
                    f"assignment named {chapter} is in Canvas, and its column 'Name (id)' is used")
    moodle = [row.student_id for row in final if not (row.email or row.lms.get("id_number"))]
    if moodle:
        said.append(f"{MOODLE} leaves out {len(moodle)} student(s) without an e-mail address or ID number "
                    f"({_some(moodle)}), which Moodle matches students by and its download names do not carry: "
                    "give --roster with Moodle's grade export (Grades -> Export -> Plain text file)")
    pending = [row.student_id for row in chapter_rows if row.state in (AWAITING, TO_REVIEW, OVERRIDE_TO_REVIEW)]
    if pending:
        said.append(f"{CANVAS} and {MOODLE} leave out {len(pending)} student(s) whose score is not final "
                    f"({_some(pending)}: awaiting manual grading or review in formgrader); run the command "
                    "again once they are graded")
    return said


def _some(students: list[str]) -> str:
    return ", ".join(students[:5]) + (", ..." if len(students) > 5 else "")


class ChapterExport(ExportPlugin):
    """``nbgrader export`` for this course: the files above, one folder per chapter (``--to``: under that folder)."""

    def export(self, gradebook: Gradebook) -> None:
        if self.to.endswith(".csv"):
            raise ValueError(f"--to names the folder that gets a folder per chapter, not a file ({self.to}); "
                             "--exporter=nbgrader.plugins.CsvExportPlugin writes nbgrader's single CSV")
        workdir = database.workdir_of(self.parent.coursedir)
        chapters = [str(name) for name in self.assignment] or [a.name for a in gradebook.assignments if a.submissions]
        wanted = {str(student) for student in self.student}
        for chapter in chapters:
            chapter_rows = [row for row in rows(gradebook, chapter) if not wanted or row.student_id in wanted]
            folder = Path(self.to) / chapter if self.to else flags.chapter_folder(workdir, chapter)
            column = roster.canvas_column(gradebook, chapter)
            written = write(folder, chapter, gradebook.find_assignment(chapter).duedate, chapter_rows, column)
            entries = flags.load(gradebook, chapter)
            written.append(flags.write(folder, {student: entry for student, entry in entries.items()
                                                if not wanted or student in wanted}))
            self.log.info("Exported %s: %s", chapter, ", ".join(map(str, written)))
            for gap in unmatched(chapter_rows, chapter, column):
                self.log.warning("%s: %s", chapter, gap)
