"""Static checks of a real Jupyter Book build: pages, links, offline assets, launch targets, no leaks."""
import html
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from grading.course import NOTEBOOKS, REPO, chapters
from grading.release import secret_lines

PAGES = ["index.html", "book/intro.html", "book/students.html", "book/instructors.html", "book/bibliography.html",
         "book/api.html", *[f"book/chapters/{c}.html" for c in chapters()]]
LINK = re.compile(r'<(a|link|script|img)\b[^>]*?\b(href|src)="([^"]*)"')


def visible_text(path: Path) -> str:
    """What a reader (or a search engine) can read in a built file: tags removed, entities decoded."""
    text = path.read_text(errors="replace")
    return html.unescape(re.sub(r"<[^>]+>", "", text)) if path.suffix == ".html" else text


def html_files(site: Path) -> list[Path]:
    """The site's pages (the theme's template fragments in _static/ are not pages)."""
    return sorted(p for p in site.rglob("*.html") if "_static" not in p.relative_to(site).parts)


def test_every_page_of_the_table_of_contents_is_built(site):
    for page in PAGES:
        assert (site / page).is_file(), f"{page} was not built"


@pytest.mark.parametrize("chapter", chapters())
def test_chapter_pages_show_math_figures_and_executed_outputs(site, chapter):
    page = (site / "book" / "chapters" / f"{chapter}.html").read_text()
    assert "math notranslate" in page, "no math on the page"
    assert re.findall(r'<img[^>]+src="[^"]+\.png"', page), "no figure on the page"
    assert "cell_output" in page, "the page shows no executed output"
    assert "NotImplementedError" in page, "the answer cells should show the student's stub"


def test_internal_links_and_images_resolve(site):
    broken = []
    for page in html_files(site):
        for tag, _, target in LINK.findall(page.read_text(errors="replace")):
            url = urlsplit(html.unescape(target))
            if url.scheme or target.startswith(("//", "mailto:", "data:", "javascript:")) or not (url.path or url.fragment):
                continue
            file = (page.parent / unquote(url.path)).resolve() if url.path else page
            if file.is_dir():
                file = file / "index.html"
            if not file.is_file():
                broken.append(f"{page.relative_to(site)}: <{tag}> {target} (no such file)")
            elif url.fragment and file.suffix == ".html" and f'id="{url.fragment}"' not in file.read_text(errors="replace"):
                broken.append(f"{page.relative_to(site)}: <{tag}> {target} (no such anchor)")
    assert not broken, "broken internal links:\n" + "\n".join(broken[:20])


def test_pages_load_no_script_style_font_or_image_from_the_network(site):
    remote = []
    for page in html_files(site):
        for tag, attribute, target in LINK.findall(page.read_text(errors="replace")):
            if tag != "a" and urlsplit(target).scheme in {"http", "https"} or (tag != "a" and target.startswith("//")):
                remote.append(f"{page.relative_to(site)}: <{tag} {attribute}={target}>")
    assert not remote, "the site would need the network:\n" + "\n".join(remote[:20])
    assert (site / "_static" / "mathjax" / "tex-chtml.js").is_file(), "MathJax is not bundled"
    assert list((site / "_static" / "mathjax" / "output" / "chtml" / "fonts" / "woff-v2").glob("*.woff"))


@pytest.mark.parametrize("chapter", chapters())
def test_launch_buttons_open_the_student_notebook(site, chapter):
    page = (site / "book" / "chapters" / f"{chapter}.html").read_text()
    student = f"notebooks/{chapter}/{chapter}.ipynb"
    assert (REPO / student).is_file() and (NOTEBOOKS / chapter).is_dir()
    for service in ("mybinder.org", "colab.research.google.com", "/hub/user-redirect/git-pull"):
        links = [html.unescape(u) for u in re.findall(r'href="([^"]*)"', page) if service in u]
        assert links, f"no {service} launch button"
        assert all(student in unquote(link) for link in links), f"{service} does not open {student}: {links}"
    assert f"_sources/book/chapters/{chapter}.ipynb" in page, "no download button for the notebook"


def test_bibliography_lists_every_source(site):
    text = visible_text(site / "book" / "bibliography.html")
    for author in ("Aziz", "Habernal", "Pingali", "Xiao", "Course notes"):
        assert author in text, f"{author} missing from the bibliography"


def test_api_reference_documents_the_graded_functions(site):
    page = (site / "book" / "api.html").read_text()
    for name in ("text.vocab.build_vocab", "text.vocab.encode", "text.vocab.decode", "text.batching.pad_batch",
                 "layers.embedding.onehot", "layers.embedding.embed"):
        assert f'id="seqmodels.{name}"' in page, f"seqmodels.{name} is not documented"


@pytest.mark.parametrize("chapter", chapters())
def test_no_solution_or_hidden_test_code_anywhere_in_the_site(site, chapter):
    secret = secret_lines(chapter)
    assert secret
    for path in site.rglob("*"):
        if path.is_file() and path.suffix in {".html", ".js", ".ipynb", ".txt", ".md", ".json"}:
            text = visible_text(path)
            leaked = [line for line in secret if line in text]
            assert not leaked, f"{path.relative_to(site)} publishes solution or hidden-test code: {leaked[:3]}"
