"""Which database is a class's gradebook, and the course's own tables in it.

A class's work folder (``classwork/``, or ``--workdir``) names its gradebook in
``<workdir>/gradebook.url``; without that file it is the embedded default, SQLite in
``<workdir>/gradebook.db`` (nothing to start). The grading command writes the file when given
``--gradebook postgresql://...``, and everything follows it: the command, nbgrader's own commands
and formgrader (``autograder/nbgrader_config.py`` reads the same file for ``classwork/``).
PostgreSQL is the choice for several assistants grading at once and for workers on other
machines; SQLite locks the whole file for each write.

Beside nbgrader's tables the gradebook holds the course's (created by :func:`opened`), so that
nothing the grades depend on lives in the current folder or beside an SQLite file:

``course_late_rules``
    a chapter's late-penalty rule (its due date is nbgrader's own ``assignment.duedate``);
``course_flags``
    why a hand-in could not be graded, and what the intake and the screens flagged;
``course_roster``
    what the LMS's roster says beyond nbgrader's student: SIS ids, section, Moodle's ID number
    (grading.instructor.gradebook.roster);
``course_written_answers``
    a fingerprint of what each cell's grade given by hand is for (a written answer's text; the
    notebook's answers for a test cell whose score was overridden) as last autograded (``seen``)
    and as last graded by hand (``graded``), so that a regrade keeps a grade whose answer did not
    change (grading.instructor.gradebook.regrade);
``course_canvas_assignments``
    the column of each Canvas assignment in Canvas's grade export, ``Name (id)``, by name, so that
    canvas.csv fills that assignment instead of creating one (grading.instructor.gradebook.roster);
``course_outputs``
    a fingerprint of each student's grades when their feedback page was last written, so that
    a run rebuilds the page of everybody whose grades changed since.
"""
import os
import sys
from contextlib import contextmanager
from pathlib import Path

from nbgrader.api import Gradebook
from sqlalchemy import Column, MetaData, String, Table, Text, create_engine
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from grading.instructor.gradebook.new_submissions import build_inside_session

FILE = "gradebook.url"

TABLES = MetaData()
LATE_RULES = Table("course_late_rules", TABLES, Column("assignment", String(128), primary_key=True),
                   Column("rule", String(32), nullable=False))
FLAGS = Table("course_flags", TABLES, Column("assignment", String(128), primary_key=True),
              Column("student", String(128), primary_key=True), Column("failed", Text),
              Column("flags", Text, nullable=False))  # a JSON list of sentences
WRITTEN_ANSWERS = Table("course_written_answers", TABLES, Column("assignment", String(128), primary_key=True),
                        Column("notebook", String(128), primary_key=True),
                        Column("student", String(128), primary_key=True),
                        Column("cell", String(128), primary_key=True),
                        Column("seen", String(64), nullable=False), Column("graded", String(64)))
ROSTER = Table("course_roster", TABLES, Column("student", String(128), primary_key=True),
               Column("sis_user_id", String(128)), Column("sis_login_id", String(128)), Column("section", String(256)),
               Column("id_number", String(128)))  # Moodle's
CANVAS_ASSIGNMENTS = Table("course_canvas_assignments", TABLES, Column("name", String(256), primary_key=True),
                           Column("column", String(300), nullable=False))
OUTPUTS = Table("course_outputs", TABLES, Column("assignment", String(128), primary_key=True),
                Column("student", String(128), primary_key=True), Column("fingerprint", String(64), nullable=False))


def url(workdir: Path) -> str:
    """The database URL of the class in ``workdir``: the one ``gradebook.url`` names, or SQLite there."""
    named = workdir / FILE
    if named.is_file():
        return named.read_text().strip()
    # several nbgrader processes may write an SQLite gradebook at once: wait for its lock instead of failing
    return f"sqlite:///{workdir / 'gradebook.db'}?timeout=120"


def choose(workdir: Path, given: str) -> None:
    """Make ``given`` the class's gradebook from now on (ValueError if it is not a database URL)."""
    try:
        make_url(given)
    except ArgumentError:
        raise ValueError(f"{given!r} is not a database URL (e.g. postgresql://grader@db.example.org/course "
                         f"or sqlite:////path/to/gradebook.db)") from None
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / FILE).write_text(given + "\n")


def check(db_url: str) -> None:
    """ValueError, in one line, when the database at ``db_url`` does not answer (nbgrader's own message would
    blame an old gradebook and ask for `nbgrader db upgrade`)."""
    engine = None
    try:
        engine = create_engine(db_url)
        engine.connect().close()
    except (SQLAlchemyError, ArgumentError, ImportError) as error:
        why = (str(getattr(error, "orig", None) or error).strip().splitlines() or ["no reason given"])[0]
        raise ValueError(f"the gradebook {shown(db_url)} cannot be opened: {why}; is its server running?") from None
    finally:
        if engine is not None:
            engine.dispose()


def shown(db_url: str) -> str:
    """The URL to print: without its password."""
    return make_url(db_url).render_as_string(hide_password=True)


def workdir_of(coursedir) -> Path:
    """The work folder of an nbgrader CourseDirectory: where its autograded notebooks go (``<workdir>/autograded``)."""
    return Path(coursedir.format_path(coursedir.autograded_directory, ".", ".")).resolve().parent


@contextmanager
def opened(db_url: str):
    """nbgrader's Gradebook at ``db_url`` with the course's tables; creating one runs nbgrader's ``alembic``
    command, found next to this Python."""
    path = os.environ.get("PATH", "")
    os.environ["PATH"] = os.pathsep.join([os.path.dirname(sys.executable), path])
    build_inside_session()  # the course adds submissions too (a hand-in that could not be graded)
    try:
        with Gradebook(db_url) as gradebook:
            # after nbgrader's tables: nbgrader takes a database with tables in it for one it made
            TABLES.create_all(gradebook.engine)
            yield gradebook
    finally:
        os.environ["PATH"] = path
