"""Static checks of a real Jupyter Book build: pages, links, offline assets, launch targets, no leaks."""
import html
import json
import os
import re
import subprocess
import sys
from functools import cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from grading.instructor.course import NOTEBOOKS, REPO, chapters, student_repository
from grading.instructor.release.notebooks import leaked, secret_lines
from grading.instructor.release.student import configured_answers, held_back
from tests.book.conftest import BUILD_OUTPUT, STUDENT_REPOSITORY, build

PAGES = ["index.html", "book/intro.html", "book/students.html", "book/instructors.html", "book/bibliography.html",
         "book/notation.html", "book/api.html", *[f"book/chapters/{c}.html" for c in chapters()]]
LINK = re.compile(r'<(a|link|script|img)\b[^>]*?\b(href|src)="([^"]*)"')


@cache
def held_back_chapters() -> set[str]:
    """Chapters whose student notebook shows answers not yet released (so the site offers no copy of it)."""
    return set(held_back(set(configured_answers())))


def test_some_chapter_is_held_back_until_earlier_answers_are_released():
    assert "06_bidirectional" in held_back_chapters() or "05_lstm_gru" in configured_answers()


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


def test_building_again_with_nothing_changed_executes_nothing_and_rewrites_no_page(site):
    """`make book` a second time, as after `make`: the pages are made and the book built again, successfully
    (with -W, as `make` builds it), without executing a notebook or rewriting a page."""
    if os.environ.get("BOOK_SITE"):
        pytest.skip("BOOK_SITE names a site built elsewhere; this test builds its own twice")
    written = {page: page.stat().st_mtime_ns for page in html_files(site)}
    made = subprocess.run([sys.executable, "book/make_pages.py"], cwd=REPO, capture_output=True, text=True)
    assert made.returncode == 0, f"book/make_pages.py failed the second time:\n{made.stdout[-2000:]}{made.stderr[-2000:]}"
    assert not made.stdout.strip(), f"book/make_pages.py executed or rewrote pages with nothing changed:\n{made.stdout}"
    build(site.parent.parent, output="second-build-output.txt")
    rewritten = [str(page.relative_to(site)) for page, time in written.items() if page.stat().st_mtime_ns != time]
    assert not rewritten, f"the second build rewrote {len(rewritten)} pages with nothing changed: {rewritten[:5]}"


@pytest.mark.parametrize("chapter", chapters())
def test_chapter_pages_show_math_figures_and_executed_outputs(site, chapter):
    page = (site / "book" / "chapters" / f"{chapter}.html").read_text()
    assert "math notranslate" in page, "no math on the page"
    assert re.findall(r'<img[^>]+src="[^"]+\.png"', page), "no figure on the page"
    assert "cell_output" in page, "the page shows no executed output"
    assert "written by you in the exercise notebook" in page, "the answer cells should show their signature"
    assert '"ne">NotImplementedError' not in page, "the answer cells show the students' stub"


def visible_text_of(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", page))


@pytest.mark.parametrize("chapter", chapters())
def test_chapter_pages_read_as_a_textbook(site, chapter):
    page = (site / "book" / "chapters" / f"{chapter}.html").read_text()
    assert page.count('class="cell tag_hide-cell') >= 3, "the visible-test cells are not collapsed"
    assert "Show the notebook's visible tests" in visible_text_of(page), "no button shows the visible tests"
    for heading in ("Summary", "Exercises and further reading", "Sources"):
        assert f">{heading}<" in page, f"no {heading} section"
    assert 'class="grading dropdown admonition"' in page, "the exercise rules are not in a collapsed box"
    text = visible_text_of(page)
    points = re.findall(r"\d+ points?\)", text)
    assert len(points) == text.count("(written answer, "), "points stand in the text, not in a question's box"
    cited = re.findall(r'href="../bibliography.html#id\d+"', page)
    assert cited, "the Sources section links to no entry of the Sources page"


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
    assert (site / "_static" / "mathjax" / "startup.js").is_file(), "MathJax is not bundled"
    assert list((site / "_static" / "mathjax" / "output" / "chtml" / "fonts" / "woff-v2").glob("*.woff"))


LAUNCH = re.compile(r'href="[^"]*(github\.com|mybinder\.org|colab\.research|/hub/user-redirect)[^"]*"')


def test_without_a_student_repository_the_site_has_no_button_that_opens_nothing(site):
    pages = [site / "book" / "chapters" / f"{chapter}.html" for chapter in chapters()] + [site / "book" / "intro.html"]
    for page in pages:
        buttons = LAUNCH.findall(page.read_text().split('<article class="bd-article"')[0])
        assert not buttons, f"{page.name}: a GitHub, Binder or Colab button although no repository is configured"
    output = site.parent.parent / BUILD_OUTPUT
    if output.is_file():  # built by the tests (not BOOK_SITE)
        assert "no student repository is configured" in output.read_text() and "repository.url" in output.read_text()


@pytest.mark.parametrize("chapter", chapters())
def test_launch_buttons_open_the_student_notebook(configured_site, chapter):
    site = configured_site
    page = (site / "book" / "chapters" / f"{chapter}.html").read_text()
    student = f"notebooks/{chapter}/{chapter}.ipynb"
    assert (REPO / student).is_file() and (NOTEBOOKS / chapter).is_dir()
    if chapter in held_back_chapters():  # its notebook gives answers not yet released
        assert not re.findall(r'href="[^"]*(mybinder\.org|colab\.research|\.ipynb)[^"]*"', page), "a notebook button"
        assert not (site / student).exists(), "the site holds a copy of a notebook held back"
        assert "The exercise notebook comes later" in visible_text_of(page), "the page does not say why it has none"
        return
    repository = STUDENT_REPOSITORY.removeprefix("https://github.com/")
    for service in ("mybinder.org", "colab.research.google.com"):
        links = [html.unescape(u) for u in re.findall(r'href="([^"]*)"', page) if service in u]
        assert links, f"no {service} launch button"
        assert all(student in unquote(link) for link in links), f"{service} does not open {student}: {links}"
        assert all(repository in unquote(link) for link in links), f"{service} opens another repository: {links}"
    github = [html.unescape(u) for u in re.findall(r'href="(https://github\.com/[^"]*)"', page)]
    assert github and all(link.startswith(STUDENT_REPOSITORY) for link in github), github
    downloads = re.findall(r'href="(\.\./[^"]*\.ipynb)"', page)
    assert downloads == [f"../../{student}"], f"the download button gives {downloads}, not the student notebook"
    assert (site / student).read_bytes() == (REPO / student).read_bytes(), "the site's copy is not the student notebook"


def test_a_build_for_a_student_repository_warns_of_notebooks_that_name_another(configured_site):
    """notebooks/ name no repository (made for the course's own configuration), so the site built for the student
    repository would give notebooks that cannot install the course on Colab: the build says so, and what to run."""
    output = (configured_site.parent.parent / BUILD_OUTPUT).read_text()
    warned = [line for line in output.splitlines() if line.startswith("warning:") and STUDENT_REPOSITORY in line]
    assert warned, f"the build for {STUDENT_REPOSITORY} does not warn that its student notebooks name none"
    stale = [chapter for chapter in chapters() if chapter not in held_back_chapters()
             and f"notebooks/{chapter}/{chapter}.ipynb names none" not in warned[0]]
    assert not stale and "make release" in warned[0], f"the warning misses {stale} or what to run: {warned[0]}"


def test_the_jupyterhub_button_opens_the_student_notebook_when_a_hub_is_configured(configured_site):
    page = (configured_site / "book" / "chapters" / "01_tokens.html").read_text()
    links = [html.unescape(u) for u in re.findall(r'href="([^"]*)"', page) if "/hub/user-redirect/git-pull" in u]
    assert links and all(unquote(link).startswith("https://hub.example.org/") for link in links), links
    assert all("notebooks/01_tokens/01_tokens.ipynb" in unquote(link) for link in links), links


@pytest.mark.parametrize("chapter", chapters())
def test_student_notebooks_install_the_course_only_where_it_is_missing(chapter, monkeypatch):
    cells = json.loads((NOTEBOOKS / chapter / f"{chapter}.ipynb").read_text())["cells"]
    install = "".join(cells[1]["source"])
    assert "COURSE_REPOSITORY" in install, "the install cell (for Colab) must run before the setup cell"
    assert f'COURSE_REPOSITORY = "{student_repository()}"' in install, "the install cell names another repository"
    for folder in re.findall(r'"(autograder|reference)"', install):
        assert (REPO / folder / "pyproject.toml").is_file()

    def no_install(*args, **kwargs):
        raise AssertionError(f"the install cell ran {args} although the course is installed")

    monkeypatch.setattr(subprocess, "run", no_install)
    exec(compile(install, "install cell", "exec"), {})


def test_binder_builds_the_course_with_the_cpu_build_of_pytorch():
    binder = (REPO / "binder" / "requirements.txt").read_text().splitlines()
    assert "-r ../requirements.txt" in binder and "--extra-index-url https://download.pytorch.org/whl/cpu" in binder
    assert (REPO / "binder" / "runtime.txt").read_text().strip() == "python-3.11"


def test_bibliography_lists_every_source_with_its_link(site):
    page = (site / "book" / "bibliography.html").read_text()
    text = visible_text(site / "book" / "bibliography.html")
    for author in ("Aziz", "Habernal", "Pingali", "Xiao", "Course notes", "Graves", "Vaswani", "Lafferty"):
        assert author in text, f"{author} missing from the bibliography"
    assert "n.d." not in text, "an entry without a year reads n.d."
    for url in re.findall(r"url\s*=\s*\{([^}]*)\}", (REPO / "book" / "references.bib").read_text()):
        assert f'href="{url}"' in page, f"{url} is not a link on the Sources page"


def test_api_reference_documents_the_graded_functions(site):
    page = (site / "book" / "api.html").read_text()
    for name in ("text.vocab.build_vocab", "text.vocab.encode", "text.vocab.decode", "text.batching.pad_batch",
                 "layers.embedding.onehot", "layers.embedding.embed"):
        assert f'id="seqmodels.{name}"' in page, f"seqmodels.{name} is not documented"


def test_code_is_written_without_a_span_for_each_plain_token(site):
    """Names, punctuation and spaces in code are plain text (book/_ext/light_pages.py), which is right only while
    Pygments' style sheet colours them as the code block itself, in the light theme and the dark one."""
    from book._ext.light_pages import PLAIN_TOKENS

    style = (site / "_static" / "pygments.css").read_text()
    for theme in ("light", "dark"):
        block = re.search(rf'html\[data-theme="{theme}"\] \.highlight {{[^}}]*color: (#\w+)', style).group(1)
        for token in PLAIN_TOKENS:
            rule = re.search(rf'html\[data-theme="{theme}"\] \.highlight \.{token} {{([^}}]*)}}', style)
            assert rule is None or rule.group(1).strip() == f"color: {block}", \
                f"pygments.css styles .{token} unlike the code around it in the {theme} theme: {rule.group(1)}"
    page = (site / "book" / "chapters" / "04_rnn.html").read_text()
    spans = re.findall(r'<span class="(?:%s)">' % "|".join(PLAIN_TOKENS), page)
    assert "highlight-ipython3" in page and not spans, f"chapter 04's code has {len(spans)} spans of plain tokens"


def test_every_table_header_says_in_words_what_its_column_holds(site):
    """A header cell that is empty, or a formula alone (which shows no text to assistive technology's checks:
    axe-core's empty-table-header), names no column."""
    unnamed = []
    for page in html_files(site):
        for header in re.findall(r"<th\b[^>]*>(.*?)</th>", page.read_text(), re.S):
            words = html.unescape(re.sub(r"<[^>]+>", "", re.sub(r"\\\(.*?\\\)", "", header))).strip()
            if not words:
                unnamed.append(f"{page.relative_to(site)}: {header[:80]!r}")
    assert not unnamed, f"table headers without words: {unnamed[:5]}"


def test_api_reference_speaks_to_readers_not_to_the_course_developers(site):
    text = " ".join(visible_text(site / "book" / "api.html").split())
    notes = [note for note in ("make_pages.py", "book/_ext", "tests/", "Error displaying widget") if note in text]
    assert not notes, f"the API reference shows the developers' notes: {notes}"


@pytest.mark.parametrize("chapter", sorted(held_back_chapters()))
def test_a_chapter_without_its_notebook_says_so_under_its_title(site, chapter):
    page = (site / "book" / "chapters" / f"{chapter}.html").read_text()
    title, note = page.find("</h1>", page.find("<article")), page.find("The exercise notebook comes later")
    assert 0 <= title < note, f"{chapter}: the note that its notebook comes later is not under the chapter's title"


@pytest.mark.parametrize("chapter", chapters())
def test_no_solution_or_hidden_test_code_anywhere_in_the_site(site, chapter):
    secret = secret_lines(chapter)
    assert secret
    for path in site.rglob("*"):  # the download buttons' copies of notebooks/ included
        if path.is_file() and path.suffix in {".html", ".js", ".ipynb", ".txt", ".md", ".json"}:
            text = visible_text(path)
            shown = leaked(secret, text)
            assert not shown, f"{path.relative_to(site)} publishes solution or hidden-test code: {shown[:3]}"


@pytest.mark.parametrize("chapter", chapters())
def test_the_page_leaves_out_the_grading_plumbing_and_joins_the_visible_tests(site, chapter):
    """The notebook keeps its set-up cell and its demos' guards; the page made from it shows neither, and
    visible-test cells in a row are one collapsed cell (one toggle)."""
    cells = json.loads((REPO / "book" / "chapters" / f"{chapter}.ipynb").read_text())["cells"]
    code = ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "code"]
    shown = [word for word in ("RUN_SLOW_DEMOS", "NBGRADER_EXECUTION", "grading.student.checks",
                               "Skipped while grading") if any(word in source for source in code)]
    assert not shown, f"{chapter}: the page shows the grading plumbing: {shown}"
    for source in code:
        compile(source, chapter, "exec")  # the demos without their guard are still Python
    tests = ["hide-cell" in cell["metadata"].get("tags", ()) for cell in cells]
    assert not any(a and b for a, b in zip(tests, tests[1:])), f"{chapter}: visible-test cells in a row"
    notebook = json.loads((REPO / "solutions" / chapter / f"{chapter}.ipynb").read_text())["cells"]
    assert any("RUN_SLOW_DEMOS" in "".join(cell["source"]) for cell in notebook), "the notebook lost its guard"


def test_pages_hold_no_leftover_thebe_configuration_and_name_the_site_once(site):
    for page in html_files(site):
        text = page.read_text(errors="replace")
        assert "x-thebe-config" not in text, f"{page.relative_to(site)}: thebe's configuration is still on the page"
    sidebar = (site / "book" / "students.html").read_text().split('<nav class="bd-links')[1].split("</nav>")[0]
    assert "Neural sequence models for NLP" not in visible_text_of(sidebar), "the site's title twice in the sidebar"
