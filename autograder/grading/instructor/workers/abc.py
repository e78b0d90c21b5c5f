"""What grades: the interface of the grading command's workers, as nbgrader's exchange/abc is of its exchanges.

The grading command (grading.instructor.grade) runs nbgrader's apps (generate_assignment, generate_feedback,
export) and autogrades one notebook per student through this interface. Two implementations:

- grading.instructor.workers.local: the embedded default, a few long-lived nbgrader processes on this machine;
  nothing to start.
- grading.instructor.workers.queue: the verdicts of each notebook are computed by Celery workers on any number
  of machines, through a Redis broker; this machine records them in the gradebook (the one writer).
"""
from abc import ABC, abstractmethod
from pathlib import Path

from grading.instructor.course import GradingError


# grading processes lost with one notebook (killed, say for memory, or their machine gone) before it is given up:
# more than one, so that an ordinary crash or a lost machine still has the notebook graded, and few, since each
# loss can hold a worker for up to the notebook's time limit
MAX_WORKERS_LOST = 3


class WorkerTimeout(RuntimeError):
    """The notebook ran past its time limit; whatever graded it was stopped."""


class Workers(ABC):
    """Processes that grade a class; a context manager that stops them at the end."""

    @property
    @abstractmethod
    def in_flight(self) -> int:
        """How many notebooks the command should hand over at once to keep every worker busy."""

    @abstractmethod
    def run(self, command: str, *argv: str, timeout: float | None = None) -> tuple[bool, str]:
        """Run ``nbgrader COMMAND ARGV`` on this machine: (succeeded, log)."""

    @abstractmethod
    def autograde(self, chapter: str, student: str, notebook: Path, checker: dict[str, int], options: list[str],
                  timeout: float) -> tuple[bool, str]:
        """Autograde one student's ``notebook`` (in nbgrader's submitted folder) and record the grades in the
        gradebook: (succeeded, log). ``checker`` holds the trusted checker's settings (TrustedVerdicts's
        traits), ``options`` nbgrader's course-directory options; WorkerTimeout past ``timeout`` seconds. A
        notebook whose grading process is lost is graded again, up to MAX_WORKERS_LOST times."""

    @abstractmethod
    def close(self) -> None:
        """Stop what this object started."""

    def check(self, command: str, *argv: str) -> None:
        """Run a command that must succeed (raise GradingError with its log otherwise)."""
        ok, log = self.run(command, *argv)
        if not ok:
            raise GradingError.from_log(" ".join((command, *argv)), log)

    def __enter__(self) -> "Workers":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def checker_options(checker: dict[str, int]) -> list[str]:
    """The checker's settings as nbgrader command-line options."""
    return [f"--TrustedVerdicts.{name}={value}" for name, value in checker.items()]
