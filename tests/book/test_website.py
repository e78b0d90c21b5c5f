"""A real Jupyter Book build of the website: warnings are errors, chapters show their outputs, nothing secret leaks."""
import html
import re
import subprocess
import sys
from pathlib import Path

import pytest

from grading.course import REPO, chapters
from grading.release import secret_lines

BIN = Path(sys.executable).parent


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    subprocess.run([sys.executable, "book/make_pages.py"], cwd=REPO, check=True)
    out = tmp_path_factory.mktemp("site")
    build = subprocess.run([BIN / "jupyter-book", "build", ".", "--warningiserror", "--path-output", out],
                           cwd=REPO, capture_output=True, text=True)
    assert build.returncode == 0, f"jupyter-book build failed:\n{build.stdout[-3000:]}\n{build.stderr[-3000:]}"
    return out / "_build" / "html"


def visible_text(path: Path) -> str:
    """What a reader (or a search engine) can read in a built file: tags removed, entities decoded."""
    text = path.read_text(errors="replace")
    return html.unescape(re.sub(r"<[^>]+>", "", text)) if path.suffix == ".html" else text


def test_every_page_of_the_table_of_contents_is_built(site):
    for page in ["index.html", "book/students.html", "book/instructors.html",
                 *[f"book/chapters/{c}.html" for c in chapters()]]:
        assert (site / page).is_file(), f"{page} was not built"


@pytest.mark.parametrize("chapter", chapters())
def test_chapter_pages_show_math_figures_and_executed_outputs(site, chapter):
    page = (site / "book" / "chapters" / f"{chapter}.html").read_text()
    assert "math notranslate" in page, "no typeset math on the page"
    images = re.findall(r'<img[^>]+src="([^"]+\.png)"', page)
    assert images, "no figure on the page"
    for image in images:
        assert (site / "book" / "chapters" / image).resolve().is_file(), f"missing image {image}"
    assert "cell_output" in page, "the page shows no executed output"
    assert "NotImplementedError" in page, "the answer cells should show the student's stub"


@pytest.mark.parametrize("chapter", chapters())
def test_no_solution_or_hidden_test_code_anywhere_in_the_site(site, chapter):
    secret = secret_lines(chapter)
    assert secret
    for path in site.rglob("*"):
        if path.is_file() and path.suffix in {".html", ".js", ".ipynb", ".txt", ".md", ".json"}:
            text = visible_text(path)
            leaked = [line for line in secret if line in text]
            assert not leaked, f"{path.relative_to(site)} publishes solution or hidden-test code: {leaked[:3]}"
