"""The course on a JupyterHub: who teaches, who grades and who studies, read from one configuration file.

The file is TOML (``autograder/hub/course.toml`` is the example the tests use)::

    course_id = "seqmodels-course"
    instructors = ["ada"]
    assistants = ["grace", "alan"]
    roster = "roster.csv"        # the LMS's grade export, as `grade --roster` reads it; relative to this file
    students = []                # more students, beyond the roster's (optional)

    [server]                     # optional; these are the defaults
    state = "/srv/seqmodels-hub" # the hub's own files: exchange, gradebook, logs (made by `make hub`)
    hub_port = 8000
    postgres_port = 5433
    redis_port = 6380
    formgrader_port = 9999
    workers = 2                  # grading worker processes (Celery)
    proxy_api_port = 8001        # the proxy's API (the hub's alone)
    hub_api_port = 8081          # the hub itself, behind the proxy

Everybody named becomes a Unix account of that name (grading.hub.accounts): the hub logs them in with PAM and
nbgrader knows a student by the account's name, so a name must be a valid one (lower-case letters, digits,
``-`` and ``_``). A Canvas roster's ids are (``smithalice``); Moodle's (``Alice-Smith``) are not, and are
refused with the names that fail, as is a name on two lists.
"""
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from grading.instructor.gradebook import roster
from grading.instructor.gradebook.roster import Person

ACCOUNT_NAME = re.compile(r"[a-z_][a-z0-9_-]{0,31}")  # useradd's default NAME_REGEX, at most 32 characters
SERVER_DEFAULTS = {"state": "/srv/seqmodels-hub", "hub_port": 8000, "postgres_port": 5433, "redis_port": 6380,
                   "formgrader_port": 9999, "workers": 2, "proxy_api_port": 8001, "hub_api_port": 8081}


class CourseError(ValueError):
    """The course configuration cannot be used; the message says what to change."""


@dataclass
class Server:
    state: Path
    hub_port: int
    postgres_port: int
    redis_port: int
    formgrader_port: int
    workers: int
    proxy_api_port: int  # the proxy's REST API, which only the hub calls
    hub_api_port: int  # the hub's own server behind the proxy (JupyterHub.hub_port)


@dataclass
class Course:
    course_id: str
    instructors: list[str]
    assistants: list[str]
    students: list[Person]
    server: Server
    source: Path = field(default=None)  # the configuration file

    @property
    def graders(self) -> list[str]:
        return [*self.instructors, *self.assistants]

    @property
    def people(self) -> list[str]:
        return [*self.graders, *(person.student for person in self.students)]

    @property
    def grader_account(self) -> str:
        """The account that owns the class's work folder and runs formgrader, the gradebook's one client."""
        return f"grader-{self.course_id}"[:32]

    @property
    def formgrade_group(self) -> str:
        """Instructors and assistants: formgrader's hub service lets this group in (nbgrader's demos' name)."""
        return f"formgrade-{self.course_id}"[:32]

    @property
    def course_group(self) -> str:
        """Everybody in the course (nbgrader's demos' name)."""
        return f"nbgrader-{self.course_id}"[:32]

    @property
    def workdir(self) -> Path:
        """The class's work folder (GRADING_WORKDIR): collected hand-ins, grades, feedback, gradebook.url."""
        return self.server.state / "classwork"

    @property
    def exchange(self) -> Path:
        """nbgrader's exchange root (its Exchange.root)."""
        return self.server.state / "exchange"


def load(path: Path) -> Course:
    """The course that ``path`` configures (CourseError saying what is wrong otherwise)."""
    path = Path(path).resolve()
    try:
        settings = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise CourseError(f"cannot read the course configuration {path}: {error}") from None
    course_id = settings.get("course_id")
    if not isinstance(course_id, str) or not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,22}", course_id):
        raise CourseError(f"{path}: course_id must be lower-case letters, digits and '-' (at most 23, it names "
                          f"accounts and groups); got {course_id!r}")
    unknown = set(settings.get("server", {})) - set(SERVER_DEFAULTS)
    if unknown:
        raise CourseError(f"{path}: [server] has no setting {', '.join(sorted(unknown))} "
                          f"(known: {', '.join(SERVER_DEFAULTS)})")
    server = {**SERVER_DEFAULTS, **settings.get("server", {})}
    students = [Person(name) for name in settings.get("students", [])]
    if settings.get("roster"):
        listed = path.parent / settings["roster"]
        try:
            students = roster.read(listed) + students
        except (OSError, ValueError) as error:
            raise CourseError(f"{path}: the roster cannot be read: {error}") from None
    course = Course(course_id, list(settings.get("instructors", [])), list(settings.get("assistants", [])), students,
                    Server(Path(server["state"]), *(int(server[key]) for key in list(SERVER_DEFAULTS)[1:])), path)
    _check_names(course)
    return course


def _check_names(course: Course) -> None:
    if not course.instructors:
        raise CourseError(f"{course.source}: name at least one instructor (instructors = [\"...\"])")
    bad = [name for name in course.people if not ACCOUNT_NAME.fullmatch(name)]
    if bad:
        raise CourseError(f"{course.source}: not valid account names (lower-case letters, digits, '-' and '_', at "
                          f"most 32, starting with a letter): {', '.join(bad)}; a Moodle roster's ids are full names: "
                          f"list those students under students = [...] with account names instead")
    seen, twice = set(), set()
    for name in course.people:
        (twice if name in seen else seen).add(name)
    if twice:
        raise CourseError(f"{course.source}: named more than once: {', '.join(sorted(twice))}")
