"""One real build of the website, shared by the static checks and the browser tests."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from grading.instructor.course import REPO, SOLUTIONS, chapters
from tests.book.pages import make_pages

BIN = Path(sys.executable).parent
BUILD_OUTPUT = "build-output.txt"  # beside _build/: what the build printed
STUDENT_REPOSITORY = "https://github.com/example-university/seqmodels-course-students"


def build(out: Path, config: Path = REPO / "_config.yml", output: str = BUILD_OUTPUT) -> Path:
    """`jupyter-book build -W` of the course into ``out`` with ``config``; the HTML folder (what the build
    printed goes to ``out / output``)."""
    done = subprocess.run([BIN / "jupyter-book", "build", ".", "--warningiserror", "--path-output", out,
                           "--config", config], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, f"jupyter-book build failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    (out / output).write_text(done.stdout + done.stderr)
    return out / "_build" / "html"


@pytest.fixture(scope="session")
def executions() -> dict[Path, str]:
    """Every solution notebook executed top to bottom in a fresh kernel, two at a time (cached by content,
    as for the website): the notebooks that failed, with their errors."""
    notebooks = [notebook for chapter in chapters() for notebook in sorted((SOLUTIONS / chapter).glob("*.ipynb"))]
    return make_pages.execute_all(notebooks, jobs=2)


@pytest.fixture(scope="session")
def pages_made(executions) -> None:
    assert not executions, "a chapter failed to execute; see test_notebooks_run.py"
    subprocess.run([sys.executable, "book/make_pages.py"], cwd=REPO, check=True)


@pytest.fixture(scope="session")
def site(request, tmp_path_factory) -> Path:
    """The built HTML folder: chapter pages made from the solutions, then `jupyter-book build -W`.

    BOOK_SITE=_build/html tests a site already built (by `make book`) instead.
    """
    if os.environ.get("BOOK_SITE"):
        return Path(os.environ["BOOK_SITE"]).resolve()
    request.getfixturevalue("pages_made")
    return build(tmp_path_factory.mktemp("site"))


@pytest.fixture(scope="session")
def configured_site(request, tmp_path_factory) -> Path:
    """The site built as the publishing workflow builds it: with the student repository and a JupyterHub.

    BOOK_CONFIGURED_SITE tests a site already built so (as BOOK_SITE does for the course's own configuration).
    """
    if os.environ.get("BOOK_CONFIGURED_SITE"):
        return Path(os.environ["BOOK_CONFIGURED_SITE"]).resolve()
    text = (REPO / "_config.yml").read_text()
    assert 'jupyterhub_url: ""' in text, "the course's configuration should leave the hub unset"
    shipped = re.search(r"^repository:\n  url: (\S+)", text, re.M).group(1)
    assert "/your-org/" in shipped, "the course's configuration should name no student repository"
    # Beside _config.yml, whose paths are relative to its folder; a dot file is no page of the book.
    request.getfixturevalue("pages_made")
    config = REPO / f".configured-{os.getpid()}.yml"
    config.write_text(text.replace('jupyterhub_url: ""', 'jupyterhub_url: "https://hub.example.org"')
                      .replace(f"  url: {shipped}", f"  url: {STUDENT_REPOSITORY}"))
    try:
        return build(tmp_path_factory.mktemp("configured-site"), config)
    finally:
        config.unlink()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """The accessibility findings of this test's pages go with its report, so that the run's summary
    (tests/conftest.py) lists them when the test ran in another process (pytest-xdist's workers)."""
    from tests.book.accessibility import EXPERIMENTAL, NOTES

    outcome = yield
    if NOTES or EXPERIMENTAL:
        outcome.get_result().user_properties.append(("accessibility", [sorted(EXPERIMENTAL), NOTES[:]]))
        NOTES.clear()
        EXPERIMENTAL.clear()
