"""One real build of the website, shared by the static checks and the browser tests."""
import subprocess
import sys
from pathlib import Path

import pytest

from grading.course import REPO

BIN = Path(sys.executable).parent


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """The built HTML folder: chapter pages made from the solutions, then `jupyter-book build -W`."""
    subprocess.run([sys.executable, "book/make_pages.py"], cwd=REPO, check=True)
    out = tmp_path_factory.mktemp("site")
    build = subprocess.run([BIN / "jupyter-book", "build", ".", "--warningiserror", "--path-output", out],
                           cwd=REPO, capture_output=True, text=True)
    assert build.returncode == 0, f"jupyter-book build failed:\n{build.stdout[-3000:]}\n{build.stderr[-3000:]}"
    return out / "_build" / "html"
