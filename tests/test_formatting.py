"""The solution notebooks' code is formatted by ruff (ruff.toml: 88 columns), so that it fits the website."""
import subprocess
import sys
from pathlib import Path

from grading.instructor.course import REPO

RUFF = Path(sys.executable).parent / "ruff"


def test_solution_notebooks_are_formatted():
    done = subprocess.run([RUFF, "format", "--check", "--diff", "solutions"], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, ("solution notebooks are not formatted: run `ruff format solutions/`, then "
                                  f"`make release`\n{done.stdout[-3000:]}{done.stderr[-2000:]}")
