"""Where the course lives and how to run nbgrader's own commands on it."""
import os
import subprocess
import sys
from pathlib import Path

from grading.instructor.gradebook import database

REPO = Path(__file__).resolve().parents[3]
SOLUTIONS = REPO / "solutions"
NOTEBOOKS = REPO / "notebooks"
CLASSWORK = REPO / "classwork"
# repository.url of _config.yml as shipped: a placeholder, no student repository yet
PLACEHOLDER_REPOSITORY = "https://github.com/your-org/"


class GradingError(RuntimeError):
    """An nbgrader command failed; the message carries the end of its log."""

    @classmethod
    def from_log(cls, command: str, log: str, detail: str = "") -> "GradingError":
        tail = "\n".join(log.splitlines()[-30:])
        return cls(f"`nbgrader {command}` failed{detail}:\n{tail}")


def student_repository() -> str:
    """The student repository named by repository.url in _config.yml, or "" while it names the placeholder.

    The website's launch buttons and the student notebooks' install cell (for Colab) point there.
    """
    import yaml  # jupyter-book's own configuration reader

    url = (yaml.safe_load((REPO / "_config.yml").read_text()).get("repository") or {}).get("url") or ""
    return "" if url.startswith(PLACEHOLDER_REPOSITORY) else url


def chapters() -> list[str]:
    """The assignment names, one per chapter folder of solutions/ (e.g. ``01_tokens``)."""
    return sorted(p.name for p in SOLUTIONS.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))


def intake_directory(workdir: Path) -> Path:
    """nbgrader's submitted directory for the grading command: the repaired copies it grades.

    Not ``<workdir>/submitted``, where ``nbgrader collect`` leaves the students' own files: the
    command may be asked to grade that folder, and never writes into the folder it reads.
    """
    return workdir / "intake"


def workdir_options(workdir: Path) -> list[str]:
    """nbgrader options that keep submissions and feedback of one class inside ``workdir``, grades in its gradebook."""
    workdir.mkdir(parents=True, exist_ok=True)
    directories = {"submitted": intake_directory(workdir), "autograded": workdir / "autograded",
                   "feedback": workdir / "feedback"}
    steps = [f"--CourseDirectory.{step}_directory={path}" for step, path in directories.items()]
    return [*steps, f"--CourseDirectory.db_url={database.url(workdir)}"]


def nbgrader_environment(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment nbgrader runs in, plus ``extra``."""
    # nbgrader starts helper programs (alembic, the kernel) by name: find this environment's first.
    return {**os.environ, **(extra or {}),
            "PATH": os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "")])}


def nbgrader(*args: str, cwd: Path = REPO, env: dict[str, str] | None = None) -> str:
    """Run ``nbgrader ARGS`` with this course's configuration; return its log, raise GradingError on failure."""
    env = nbgrader_environment(env)
    done = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=cwd, env=env, capture_output=True, text=True)
    log = done.stdout + done.stderr
    if done.returncode != 0:
        raise GradingError.from_log(" ".join(args), log, f" (exit {done.returncode})")
    return log
