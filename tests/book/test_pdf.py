"""The book as one PDF (book/make_pdf.py, `make pdf`): printed by Chromium from the built site, read back with pypdf.
It holds every page of the contents, every chapter's title and figures, and no line of the solutions; the
website's first page links it once it is built (book/_ext/book_pdf.py).

BOOK_PDF=_build/pdf/<name>.pdf tests a PDF already made (by `make pdf`) instead of printing the site again.
"""
import html
import importlib.util
import json
import os
import re
from functools import cache
from pathlib import Path

import pytest

from grading.instructor.course import REPO, SOLUTIONS, chapters
from grading.instructor.release.notebooks import secret_lines
from tests.book.conftest import build
from tests.book.site_pages import toc_pages

_spec = importlib.util.spec_from_file_location("make_pdf", REPO / "book" / "make_pdf.py")
make_pdf = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_pdf)

PAGES_PER_CHAPTER = (15, 60)  # on average, the other pages of the site included: 516 pages for 14 chapters (Dec 2026)
SHORTEST_SECRET = 30  # characters without spaces: a shorter solution line may stand inside a longer published one
# A diagram is in the PDF when most of its labels (of 4 characters or more: "0" stands anywhere) are in its text:
# Chromium prints an SVG as text and lines, and pypdf, which orders words by position, may interleave a label with
# another on its baseline (86 % of 14_scan_tree's come out whole, all of 20 of the 25 diagrams', Dec 2026).
LABELS_FOUND = 0.8
TEXT = re.compile(r"<text[^>]*>([^<]+)</text>")
TITLE = re.compile(r"^# (.+)$", re.M)


@pytest.fixture(scope="session")
def book_pdf(site) -> Path:
    if os.environ.get("BOOK_PDF"):
        return Path(os.environ["BOOK_PDF"]).resolve()
    executable = make_pdf.chromium_path()
    if executable is None:
        pytest.skip("Chromium is not installed (Debian/Ubuntu: apt-get install chromium); the PDF is not printed")
    out = site.parent / "pdf" / make_pdf.NAME  # where `make pdf` puts it, beside the site
    make_pdf.make_pdf(site, out, executable)
    return out


@pytest.fixture(scope="session")
def reader(book_pdf):
    return pytest.importorskip("pypdf").PdfReader(book_pdf)


@pytest.fixture(scope="session")
def squeezed(reader) -> str:
    """The PDF's text without white space (a long line of code or a title wraps where the page ends)."""
    return re.sub(r"\s+", "", "".join(page.extract_text() for page in reader.pages))


def _squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


@cache
def chapter_title(chapter: str) -> str:
    notebook = (SOLUTIONS / chapter / f"{chapter}.ipynb").read_text()
    return html.unescape(TITLE.search("".join(json.loads(notebook)["cells"][0]["source"])).group(1))


def test_the_pdf_has_a_book_length(reader):
    low, high = (len(chapters()) * per_chapter for per_chapter in PAGES_PER_CHAPTER)
    assert low <= len(reader.pages) <= high, f"the book has {len(reader.pages)} pages, not {low} to {high}"


def test_the_contents_give_every_page_of_the_site_and_the_page_where_it_starts(reader, squeezed):
    contents = _squeeze(reader.pages[0].extract_text() + reader.pages[1].extract_text())
    titles = [chapter_title(chapter) for chapter in chapters()]
    missing = [title for title in titles if not re.search(re.escape(_squeeze(title)) + r"\d+", contents)]
    assert not missing, f"the contents give no page for {missing}"
    bookmarks = [item["/Title"] for item in reader.outline if not isinstance(item, list)]
    assert len(bookmarks) == 1 + len(toc_pages()), f"bookmarks: the contents, then a page each: {bookmarks}"


@pytest.mark.parametrize("chapter", chapters())
def test_every_chapter_is_in_the_pdf_with_its_title(squeezed, chapter):
    assert _squeeze(chapter_title(chapter)) in squeezed, f"{chapter}: no title {chapter_title(chapter)!r} in the PDF"


def _figures(site: Path) -> tuple[int, dict[str, list[str]]]:
    """The number of result figures (PNG) in the pages of the contents, and each diagram's (SVG) labels, without
    white space."""
    pngs, diagrams = 0, {}
    for page in toc_pages():
        text = (site / f"{page}.html").read_text()
        main = text[text.find("<main"):text.find("</main>")]
        pngs += len(re.findall(r'<img[^>]+src="[^"]+\.png"', main))
        for svg in re.findall(r'<img[^>]+src="([^"]+\.svg)"', main):
            diagram = (site / page).parent / svg
            labels = (_squeeze(html.unescape(label)) for label in TEXT.findall(diagram.read_text()))
            diagrams[diagram.name] = [label for label in labels if len(label) >= 4]
    return pngs, diagrams


def test_every_figure_and_diagram_is_in_the_pdf(site, reader, squeezed):
    pngs, diagrams = _figures(site)
    images = sum(len(page.images) for page in reader.pages)
    assert images >= pngs > 0, f"the PDF holds {images} images; the pages of the site show {pngs} figures"
    missing = {name: [label for label in labels if label not in squeezed] for name, labels in diagrams.items()}
    absent = {name: labels for name, labels in missing.items() if len(labels) > (1 - LABELS_FOUND) * len(diagrams[name])}
    assert diagrams and not absent, f"diagrams whose labels the PDF lacks: {absent}"


def test_the_pdf_holds_no_line_of_the_solutions(squeezed):
    secret = {_squeeze(line) for chapter in chapters() for line in secret_lines(chapter, ("SOLUTION",))}
    secret = {line for line in secret if len(line) >= SHORTEST_SECRET}
    assert len(secret) > 100, f"only {len(secret)} solution lines to look for"
    shown = sorted(line for line in secret if line in squeezed)
    assert not shown, f"the PDF prints {len(shown)} lines of the solutions: {shown[:3]}"


def test_the_website_links_the_pdf_once_it_is_built(site, book_pdf):
    """The site built again once the PDF is made, as `make pdf` does (BOOK_SITE: the site `make pdf` built)."""
    if not os.environ.get("BOOK_SITE"):
        build(site.parent.parent, output="pdf-build-output.txt")
    intro = (site / "book" / "intro.html").read_text()
    assert f'href="../{make_pdf.NAME}"' in intro, "the first page does not link the book's PDF"
    assert (site / make_pdf.NAME).read_bytes() == book_pdf.read_bytes(), "the site serves another PDF than make_pdf's"
