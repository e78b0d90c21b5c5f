"""Who the students are in the LMS, kept in the gradebook so that the LMS files import.

Canvas matches a grade-import row by its user id (``ID``), else by ``SIS User ID`` or ``SIS Login
ID``; Moodle by a column chosen at import: the user's ``ID number`` or ``Email address``. A
download of hand-ins carries little of it: Canvas's file names carry the user id, which the
intake keeps as nbgrader's ``lms_user_id`` (:func:`record_canvas_ids`); Moodle's carry the full
name only. A roster fills in the rest (``--roster``): the LMS's own grade export, read as it
writes it:

- Canvas (*Grades → Export*): ``Student`` ("Last, First"), ``ID``, ``SIS User ID``,
  ``SIS Login ID``, ``Section``, then the assignments, each column named ``Name (id)``; the row
  under the header gives the points possible. The assignments' columns are kept too
  (:func:`canvas_assignments`): Canvas's import fills the assignment a column names with its id,
  and creates a new assignment for a column without one, so canvas.csv names the chapter's column
  as the export does;
- Moodle (*Grades → Export → Plain text file*): ``First name``, ``Last name``, ``ID number``,
  ``Institution``, ``Department``, ``Email address``, then the grade items.

A Canvas row is the student whose hand-in came with its user id, else the id Canvas's download
names give that person (the sortable name, lower case, letters and digits only: ``smithalice``,
``gödelkurt``);
a Moodle row is the student named after the full name (``Alice-Smith``, as its download names
give). Names and e-mail go to nbgrader's student, the rest to the gradebook's ``course_roster``.
"""
import csv
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from nbgrader.api import Gradebook
from sqlalchemy import select

from grading.instructor.gradebook.database import CANVAS_ASSIGNMENTS, ROSTER, TABLES, opened
from grading.instructor.intake.lms import student_id

CANVAS_HEADER = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
MOODLE_HEADER = ["First name", "Last name", "ID number", "Institution", "Department", "Email address"]
CANVAS_ASSIGNMENT = re.compile(r"(?P<name>.*\S) \((?P<id>\d+)\)")  # an assignment's column: "01_tokens (31416)"


@dataclass
class Person:
    """One student as the LMS knows them (None where the roster says nothing)."""
    student: str  # the student id in the gradebook
    first_name: str | None = None
    last_name: str | None = None
    email: str | None = None
    lms_user_id: str | None = None  # Canvas's user id
    sis_user_id: str | None = None
    sis_login_id: str | None = None
    section: str | None = None
    id_number: str | None = None  # Moodle's ID number


def _table(path: Path) -> list[dict]:
    with path.open(newline="", encoding="utf-8-sig") as handle:  # Excel and Moodle may write a byte-order mark
        return list(csv.DictReader(handle))


def read(path: Path) -> list[Person]:
    """The people in a Canvas or Moodle grade export (ValueError naming the columns expected otherwise)."""
    table = _table(path)
    columns = set(table[0]) if table else set()
    if set(CANVAS_HEADER) <= columns:
        return [_canvas(row) for row in table if row["ID"].strip().isdigit()]  # not "Points Possible"
    if {"First name", "Last name", "Email address"} <= columns:
        return [_moodle(row) for row in table if row["First name"].strip() or row["Last name"].strip()]
    raise ValueError(f"{path} is neither Canvas's grade export (columns {', '.join(CANVAS_HEADER)}) nor Moodle's "
                     f"(columns {', '.join(MOODLE_HEADER)}): export the gradebook from the LMS and give that file")


def _blank(text: str | None) -> str | None:
    return text.strip() or None if text else None


def _canvas(row: dict) -> Person:
    last, _, first = row["Student"].partition(",")
    return Person(canvas_student_id(row["Student"]), _blank(first), _blank(last), None, row["ID"].strip(),
                  _blank(row["SIS User ID"]), _blank(row["SIS Login ID"]), _blank(row["Section"]))


def canvas_student_id(sortable_name: str) -> str:
    """The student id Canvas's download names give a person: ``Smith, Alice`` -> ``smithalice``, ``Gödel, Kurt``
    -> ``gödelkurt`` (letters of any script kept, as the intake keeps them: grading.instructor.intake.lms)."""
    return re.sub(r"[\W_]", "", unicodedata.normalize("NFC", sortable_name).lower()) or "unnamed"


def _moodle(row: dict) -> Person:
    first, last = row["First name"].strip(), row["Last name"].strip()
    return Person(student_id(f"{first} {last}"), first or None, last or None, _blank(row["Email address"]),
                  id_number=_blank(row.get("ID number")))


def record(db_url: str, people: list[Person]) -> None:
    """Add or update each person in the gradebook (what the roster does not say is left as it is)."""
    with opened(db_url) as gradebook:
        by_user_id = {s.lms_user_id: s.id for s in gradebook.students if s.lms_user_id}
        for person in people:
            person.student = by_user_id.get(person.lms_user_id, person.student)  # whose hand-in carried the id
            said = {key: getattr(person, key) for key in ("first_name", "last_name", "email", "lms_user_id")
                    if getattr(person, key)}
            gradebook.update_or_create_student(person.student, **said)
            _keep(gradebook, person.student, {key: getattr(person, key) for key in
                                              ("sis_user_id", "sis_login_id", "section", "id_number")})
        gradebook.db.commit()


def canvas_assignments(path: Path) -> dict[str, str]:
    """The assignments' columns of a Canvas grade export, by assignment name ({} for Moodle's)."""
    table = _table(path)
    columns = list(table[0]) if table else []
    if not set(CANVAS_HEADER) <= set(columns):
        return {}
    found = (CANVAS_ASSIGNMENT.fullmatch(column.strip()) for column in columns)
    return {match["name"]: match.group(0) for match in found if match}


def record_canvas_assignments(db_url: str, columns: dict[str, str]) -> None:
    """Keep the Canvas export's column of each assignment (the last export read says)."""
    with opened(db_url) as gradebook:
        for name, column in columns.items():
            where = CANVAS_ASSIGNMENTS.c.name == name
            known = gradebook.db.execute(select(CANVAS_ASSIGNMENTS).where(where)).first()
            gradebook.db.execute(CANVAS_ASSIGNMENTS.update().where(where).values(column=column) if known
                                 else CANVAS_ASSIGNMENTS.insert().values(name=name, column=column))
        gradebook.db.commit()


def canvas_column(gradebook: Gradebook, chapter: str) -> str | None:
    """The column of Canvas's export for the assignment named ``chapter``, with its id; None if none was read."""
    TABLES.create_all(gradebook.engine)
    found = gradebook.db.execute(select(CANVAS_ASSIGNMENTS).where(CANVAS_ASSIGNMENTS.c.name == chapter)).first()
    return found.column if found else None


def record_canvas_ids(db_url: str, user_ids: dict[str, str]) -> None:
    """Keep the Canvas user id each student's download name carried."""
    with opened(db_url) as gradebook:
        for student, user_id in user_ids.items():
            gradebook.update_or_create_student(student, lms_user_id=user_id)


def _keep(gradebook: Gradebook, student: str, values: dict[str, str | None]) -> None:
    said = {key: value for key, value in values.items() if value}
    if not said:
        return
    where = ROSTER.c.student == student
    if gradebook.db.execute(select(ROSTER).where(where)).first():
        gradebook.db.execute(ROSTER.update().where(where).values(**said))
    else:
        gradebook.db.execute(ROSTER.insert().values(student=student, **said))


def load(gradebook: Gradebook) -> dict[str, dict[str, str | None]]:
    """What the rosters said beyond nbgrader's student, by student id."""
    TABLES.create_all(gradebook.engine)
    return {row.student: row._asdict() for row in gradebook.db.execute(select(ROSTER))}
