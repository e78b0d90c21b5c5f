"""The website in a real browser: Chromium (from the system packages, driven by Playwright) reads
the built site from a local static server with no network, on a phone's screen (390 px) and a
laptop's (1366 px). Every page must render: text, typeset math and no TeX source left, loaded
figures with alt text, no sideways scrolling, a chapter list that the ☰ button opens, visible-test
cells collapsed, search snippets without TeX, and a clean console. A screenshot of each page at
each width is kept in _build/test-artifacts/screenshots/.
"""
import functools
import html
import os
import re
import shutil
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote, urlsplit

import pytest

from grading.instructor.course import REPO, chapters
from tests.book.accessibility import accessibility_problems
from tests.book.site_pages import diagram_label_units, toc_pages

SCREENSHOTS = REPO / "_build" / "test-artifacts" / "screenshots"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-sync",
                  "--disable-background-networking", "--disable-component-update"]
PAGES = toc_pages()
VIEWPORTS = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1366, "height": 900}}
FIXED_BYTES = 600_000  # what every page loads besides its own HTML, figures and maths: theme, icons, scripts
PAGE_BYTES = 1_800_000  # the heaviest chapter, MathJax (0.76 MB of script, and its fonts) and figures included
CODE_SCROLLING = 0.05  # the share of code and output blocks that may scroll sideways at 1366 px
SMALLEST_LABEL_PX = 10  # a diagram's smallest label, on a phone once tapped
# TeX that MathJax should have typeset: a command, display dollars, \( or \[, or $...$ around a formula.
RAW_TEX = re.compile(r"\\[A-Za-z]{2,}|\$\$|\\[(\[]|\$[^$\s][^$\n]{0,80}\$")
# The reader's text: what is on screen, less code (where a backslash is Python) and typeset math.
# The notebooks' grading set-up and demo guards, which the page leaves out (book/make_pages.py).
PLUMBING = ["RUN_SLOW_DEMOS", "NBGRADER_EXECUTION", "grading.student.checks", "Skipped while grading"]
# Blocks that may scroll sideways: code, equations, inline formulas and (the theme's box around) tables.
SCROLLING = ("main pre, main mjx-container[display='true'], main span.math, "
             "main .pst-scrollable-table-container")
# Every box in the text whose content is wider than it: [what, scrolls, cue, keyboard, text]. One that hides
# the rest (overflow hidden or clip) cuts it off; one that scrolls needs a cue (a fade at the edge, as scroll
# bars are hidden on phones) and must be reachable by keyboard. A formula is one box: the parts MathJax typesets
# it from clip on purpose (a stretched bracket's extender; the copy for screen readers, clipped to nothing).
CUT_OFF = r"""() => [...document.querySelectorAll('main article *')].filter(box => {
    const style = getComputedStyle(box);
    return style.overflowX !== 'visible' && box.getClientRects().length
      && (!box.tagName.startsWith('MJX-') || box.tagName === 'MJX-CONTAINER')
      && box.scrollWidth > box.clientWidth + 1 && style.visibility !== 'hidden'; })
  .map(box => { const style = getComputedStyle(box);
    return [box.tagName.toLowerCase() + (box.className && box.className.baseVal === undefined
              ? '.' + box.className.trim().split(/\s+/).join('.') : ''),
            ['auto', 'scroll'].includes(style.overflowX),
            [style.maskImage, style.webkitMaskImage].some(m => m && m !== 'none'),
            box.tabIndex >= 0 || box.querySelector('a, button, [tabindex]') !== null,
            (box.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 50)]; })"""
READER_TEXT = """(root) => { const copy = root.cloneNode(true);
  copy.querySelectorAll('pre, code, mjx-container, script, style, details:not([open]) > :not(summary)')
      .forEach(e => e.remove());
  return copy.textContent; }"""


def chromium_path() -> str:
    path = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is not installed; CI must run the browser tests (`make test` installs it as root)")
        pytest.skip("Chromium is not installed (Debian/Ubuntu: apt-get install chromium); browser tests skipped")
    return path


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def server(site):
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    executable = chromium_path()
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture(params=list(VIEWPORTS))
def page(request, browser, server):
    """A fresh tab, on a phone's or a laptop's screen, that records console errors, page errors and every
    request that failed or left the machine."""
    context = browser.new_context(viewport=VIEWPORTS[request.param], has_touch=request.param == "phone")
    tab = context.new_page()
    tab.screen = request.param
    tab.problems = []
    tab.on("console", lambda m: m.type == "error" and tab.problems.append(f"console: {m.text}"))
    tab.on("pageerror", lambda e: tab.problems.append(f"page error: {e}"))
    tab.on("requestfailed", lambda r: tab.problems.append(f"failed request: {r.url}"))
    tab.on("response", lambda r: r.status >= 400 and tab.problems.append(f"HTTP {r.status}: {r.url}"))
    tab.on("request", lambda r: r.url.startswith(server) or r.url.startswith("data:")
           or tab.problems.append(f"request off the machine: {r.url}"))
    tab.loaded = []  # the files the page loaded, for its weight
    tab.on("requestfinished", lambda r: r.url.startswith(server) and tab.loaded.append(r.url.removeprefix(server)))
    yield tab
    context.close()


def on_screen(locator) -> bool:
    """Shown and inside the window (a closed sidebar may be rendered, but slid out of the screen)."""
    box = locator.bounding_box() if locator.is_visible() else None
    width = locator.page.viewport_size["width"]
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 1


def open_page(page, server, name: str) -> None:
    """Load a page and wait until MathJax has typeset it (if it has math)."""
    page.goto(f"{server}/{name}.html", wait_until="networkidle")
    if page.locator("main .math").count():
        try:
            page.wait_for_function("() => window.MathJax && MathJax.startup && MathJax.startup.promise", timeout=15000)
        except pytest.importorskip("playwright.sync_api").TimeoutError:
            pytest.fail(f"{name}: MathJax never loaded, so its math is not typeset ({'; '.join(page.problems)})")
        page.evaluate("() => MathJax.startup.promise")


@pytest.mark.parametrize("name", PAGES)
def test_page_renders_completely_offline_and_fits_the_screen(page, server, site, name):
    open_page(page, server, name)
    heading = page.locator("main h1 >> visible=true").first
    assert heading.is_visible() and heading.inner_text().strip(), f"{name}: blank page (no visible title)"
    assert len(page.locator("main").inner_text()) > 200, f"{name}: the page has almost no text"

    typeset = page.locator("main mjx-container").count()
    assert typeset >= page.locator("main .math").count(), f"{name}: math is not typeset ({typeset} formulas)"
    assert page.locator("main mjx-merror").count() == 0, f"{name}: MathJax reports a TeX error"
    raw = RAW_TEX.findall(page.locator("main").evaluate(READER_TEXT))
    assert not raw, f"{name}: TeX source shows in the text instead of typeset math: {raw[:5]}"

    broken = page.evaluate("() => [...document.querySelectorAll('main img')]"
                           ".filter(i => !i.complete || i.naturalWidth === 0).map(i => i.src)")
    assert not broken, f"{name}: figures failed to load: {broken}"
    described = page.evaluate("() => [...document.querySelectorAll('main article img')].map(i => [i.src, i.alt])")
    unnamed = [src for src, alt in described if len(alt.split()) < 4]
    assert not unnamed, f"{name}: figures without a description in their alt text: {unnamed}"

    if name.startswith("book/chapters/"):  # the figures the notebook drew
        sizes = page.evaluate("() => [...document.querySelectorAll('main .cell_output img')].map(i => i.naturalWidth)")
        assert sizes and all(width > 100 for width in sizes), f"{name}: figures missing or empty: {sizes}"

    check_figures_keep_their_shape(page, name)
    check_code_fits(page, name)
    check_nothing_cut_off(page, name)
    if page.screen == "phone":
        check_diagrams_read_once_tapped(page, name, site)
        check_figures_read_once_tapped(page, name)
    else:
        check_page_weight(page, name, site)
    check_accessibility(page, name)

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"{name.replace('/', '__')}-{page.screen}.png", full_page=True)
    assert not page.problems, f"{name}: " + "; ".join(page.problems)

    width, screen = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    if width > screen:  # name what sticks out, for the message
        wide = page.evaluate("""(screen) => [...document.querySelectorAll('main *')]
            .filter(e => e.getBoundingClientRect().width > 0 && e.getBoundingClientRect().right > screen + 1)
            .slice(0, 3).map(e => e.tagName + ' ' + (e.textContent || '').trim().slice(0, 60))""", screen)
        pytest.fail(f"{name} is {width} px wide on a {screen} px screen: it scrolls sideways ({wide})")


def check_figures_keep_their_shape(page, name: str) -> None:
    """Every image is shown at its own aspect ratio (within 2 %), however narrow the screen makes it."""
    shown = page.evaluate("""() => [...document.querySelectorAll('main img')]
        .filter(i => i.naturalWidth && i.getBoundingClientRect().width > 0)
        .map(i => [i.src.split('/').pop(), i.getBoundingClientRect().width, i.getBoundingClientRect().height,
                   i.naturalWidth, i.naturalHeight])""")
    bent = [f"{src} {w:.0f}x{h:.0f} (its own {nw}x{nh})" for src, w, h, nw, nh in shown
            if abs((w / h) / (nw / nh) - 1) > 0.02]
    assert not bent, f"{name} on a {page.screen}: figures drawn out of shape: {bent[:4]} ({len(bent)} of {len(shown)})"


def check_code_fits(page, name: str) -> None:
    """At 1366 px nearly every code and output block fits its box; where one scrolls (or an equation does),
    its edge says so: a fade where it goes on (book/_static/reader.js), as scroll bars are hidden on phones."""
    blocks = page.evaluate(f"""() => [...document.querySelectorAll("{SCROLLING}")]
        .filter(e => e.getBoundingClientRect().width > 0)
        .map(e => [e.tagName, e.scrollWidth > e.clientWidth + 1, getComputedStyle(e).maskImage
                   || getComputedStyle(e).webkitMaskImage, (e.textContent || '').trim().slice(0, 50)])""")
    scrolling = [block for block in blocks if block[1]]
    unmarked = [text for tag, _, mask, text in scrolling if not mask or mask == "none"]
    assert not unmarked, f"{name} on a {page.screen}: blocks scroll sideways with no sign of it: {unmarked[:3]}"
    if page.screen == "laptop":
        code = [block for block in blocks if block[0] == "PRE"]
        wide = [text for tag, scrolls, _, text in code if scrolls]
        assert len(wide) <= CODE_SCROLLING * len(code), \
            f"{name}: {len(wide)} of {len(code)} code blocks scroll sideways at 1366 px: {wide[:3]}"


def check_nothing_cut_off(page, name: str) -> None:
    """No formula, code block or table is cut off: whatever is wider than its box scrolls, with a visible cue,
    and the keyboard reaches it."""
    boxes = page.evaluate(CUT_OFF)
    cut = [f"{what} ({text!r})" for what, scrolls, _, _, text in boxes if not scrolls]
    assert not cut, f"{name} on a {page.screen}: cut off with no way to scroll: {cut[:4]} ({len(cut)})"
    unmarked = [f"{what} ({text!r})" for what, _, cue, _, text in boxes if not cue]
    assert not unmarked, f"{name} on a {page.screen}: scrolls sideways with no cue: {unmarked[:4]} ({len(unmarked)})"
    unreachable = [f"{what} ({text!r})" for what, _, _, keyboard, text in boxes if not keyboard]
    assert not unreachable, f"{name} on a {page.screen}: scrolls but no key reaches it: {unreachable[:4]}"


def check_enlarge_cue(page, image, name: str) -> None:
    """Under an image shown smaller than it reads, a visible cue says that a tap enlarges it."""
    cue = image.locator("xpath=following-sibling::*[contains(@class, 'enlarge-cue')]")
    src = image.evaluate("i => i.src.split('/').pop()")
    assert cue.count() == 1 and cue.is_visible(), f"{name}: nothing tells a phone reader that a tap enlarges {src}"
    said = cue.evaluate("c => getComputedStyle(c, '::after').content")
    assert "Tap to enlarge" in said, f"{name}: the cue under {src} says {said}"


def check_enlarged_box_scrolls_with_a_cue(page, image, name: str) -> None:
    box = image.locator("xpath=..")
    wide, mask, said = box.evaluate("""b => [b.scrollWidth > b.clientWidth + 1, getComputedStyle(b).maskImage,
        getComputedStyle(b.querySelector('.enlarge-cue'), '::after').content]""")
    src = image.evaluate("i => i.src.split('/').pop()")
    assert not wide or (mask and mask != "none"), f"{name}: {src} once enlarged scrolls sideways with no fade"
    assert "Scroll sideways" in said, f"{name}: once enlarged, the cue under {src} says {said}"


def check_figures_read_once_tapped(page, name: str) -> None:
    """A result figure shrinks with a phone's screen (its axis labels about 4 px); a tap shows it at its own size,
    where Matplotlib's axis labels (10 pt at 72 dpi) are 10 px; the PNG is drawn at twice that size."""
    figures = page.locator("main article.bd-article .cell_output img[src$='.png']")
    for n in range(figures.count()):
        figure = figures.nth(n)
        figure.scroll_into_view_if_needed()
        shown, natural = figure.evaluate("i => [i.getBoundingClientRect().width, i.naturalWidth]")
        if shown >= natural / 2 - 1:
            continue  # already at its own size
        check_enlarge_cue(page, figure, name)
        figure.click()
        page.wait_for_function("i => i.getAttribute('aria-expanded') === 'true'", arg=figure.element_handle(),
                               timeout=5000)
        label = SMALLEST_LABEL_PX * figure.evaluate("i => i.getBoundingClientRect().width") / (natural / 2)
        src = figure.evaluate("i => i.src.split('/').pop()")
        assert label >= SMALLEST_LABEL_PX - 0.1, f"{name}: {src}'s axis labels are {label:.1f} px once tapped"
        check_enlarged_box_scrolls_with_a_cue(page, figure, name)
        figure.click()


def check_diagrams_read_once_tapped(page, name: str, site) -> None:
    """On a phone a diagram shrinks with the screen; a tap shows it large enough that no label is smaller
    than 10 px (its SVG's smallest font size, scaled as the image is shown); another tap shrinks it."""
    diagrams = page.locator("main article.bd-article img[src$='.svg']")
    for n in range(diagrams.count()):
        diagram = diagrams.nth(n)
        src = diagram.evaluate("i => new URL(i.src).pathname")
        smallest, view_width = diagram_label_units(site / unquote(src).lstrip("/"))
        diagram.scroll_into_view_if_needed()
        if smallest * diagram.evaluate("i => i.getBoundingClientRect().width") / view_width < SMALLEST_LABEL_PX:
            check_enlarge_cue(page, diagram, name)
        diagram.click()
        try:
            page.wait_for_function("i => i.getAttribute('aria-expanded') === 'true'", arg=diagram.element_handle(),
                                   timeout=5000)
        except pytest.importorskip("playwright.sync_api").TimeoutError:
            pass  # measured as it is
        width = diagram.evaluate("i => i.getBoundingClientRect().width")
        label = smallest * width / view_width
        assert label >= SMALLEST_LABEL_PX, f"{name}: {src}'s smallest label is {label:.1f} px on a phone once tapped"
        check_enlarged_box_scrolls_with_a_cue(page, diagram, name)
        diagram.click()


def check_page_weight(page, name: str, site) -> None:
    """The bytes a page loads, from the browser's own list of what it fetched (the files as served)."""
    sizes = {url: (site / unquote(urlsplit(url).path).lstrip("/")).stat().st_size for url in set(page.loaded)}
    mathjax = [url for url in sizes if "/_static/mathjax/" in url]
    fixed = sum(size for url, size in sizes.items() if url.startswith("/_static/") and url not in mathjax)
    assert fixed <= FIXED_BYTES, f"{name}: its theme, icons and scripts weigh {fixed:,} bytes: " + ", ".join(
        f"{url.split('?')[0]} {size:,}" for url, size in sorted(sizes.items(), key=lambda s: -s[1])[:6])
    total = sum(sizes.values())
    assert total <= PAGE_BYTES, f"{name} weighs {total:,} bytes ({len(sizes)} files)"
    if not page.locator("main .math").count():
        assert not mathjax, f"{name} has no formula but loads MathJax: {mathjax[:2]}"


def check_accessibility(page, name: str) -> None:
    """axe-core on the page in light and in dark mode: no critical or serious violation (the rest are listed)."""
    problems = accessibility_problems(page, f"{name} on a {page.screen}")
    assert not problems, f"{name}: accessibility violations (axe-core):\n" + "\n".join(problems)


@pytest.mark.parametrize("chapter", chapters())
def test_visible_tests_are_collapsed_but_one_tap_away(page, server, chapter):
    page.goto(f"{server}/book/chapters/{chapter}.html", wait_until="networkidle")
    text = page.locator("main").inner_text()
    assert "visible tests passed" not in text, f"{chapter}: a visible-test cell's output is shown on the page"
    assert "call(" not in text, f"{chapter}: a visible-test cell's code is shown on the page"
    toggles = page.locator("main details.hide > summary")
    assert toggles.count() >= 3, f"{chapter}: the visible tests are not there to open ({toggles.count()} toggles)"
    toggles.first.click()
    assert "call(" in page.locator("main").inner_text(), f"{chapter}: opening a test cell shows no test"
    names = toggles.evaluate_all("ts => ts.map(t => t.getAttribute('aria-label') || t.innerText.trim())")
    unnamed = [name for name in names if "visible tests" not in name]
    assert not unnamed, f"{chapter}: toggles whose name does not say what they open: {unnamed[:2]}"
    in_a_row = page.evaluate("""() => [...document.querySelectorAll('main div.cell.tag_hide-cell')]
        .filter(c => c.nextElementSibling && c.nextElementSibling.matches('div.cell.tag_hide-cell')).length""")
    assert not in_a_row, f"{chapter}: {in_a_row} visible-test toggles follow another (one toggle for a run of tests)"
    code = " ".join(page.locator("main .cell_input").all_text_contents())
    plumbing = [word for word in PLUMBING if word in text + code]
    assert not plumbing, f"{chapter}: the grading plumbing shows on the page: {plumbing}"


def test_the_menu_button_opens_the_chapter_list(page, server):
    page.goto(f"{server}/book/intro.html", wait_until="networkidle")
    chapter = page.locator("nav.bd-links a", has_text="From tokens to vectors").first
    menu = page.locator(".primary-toggle >> visible=true")
    assert menu.count() == 1, f"{page.screen}: {menu.count()} visible ☰ buttons"
    if page.screen == "laptop":  # the list is open beside the text; ☰ folds it away and back
        assert on_screen(chapter), "the chapter list is not shown beside the text"
        menu.click()
        page.wait_for_timeout(500)  # the sidebar slides
    assert not on_screen(chapter), f"{page.screen}: the chapter list is open before tapping ☰ (or stays open)"
    menu.click()
    page.wait_for_timeout(500)
    assert on_screen(chapter), f"{page.screen}: tapping ☰ does not open the chapter list"
    chapter.click()
    page.wait_for_load_state("networkidle")
    assert page.url.endswith("book/chapters/01_tokens.html")
    assert "From tokens to vectors" in page.locator("main h1 >> visible=true").first.inner_text()
    assert not page.problems, "; ".join(page.problems)


def test_one_header_with_one_search_box(page, server):
    page.goto(f"{server}/book/chapters/02_pooling.html", wait_until="networkidle")
    headers = page.locator("header >> visible=true").count()
    searches = page.evaluate("""() => [...document.querySelectorAll('.search-button-field, .search-button')]
        .filter(e => e.getBoundingClientRect().width > 0 && getComputedStyle(e).visibility !== 'hidden').length""")
    assert headers <= 1, f"{page.screen}: {headers} header bars"
    assert searches == 1, f"{page.screen}: {searches} search boxes or buttons"


def test_the_contents_button_opens_the_sections_of_a_chapter(page, server):
    page.goto(f"{server}/book/chapters/02_pooling.html", wait_until="networkidle")
    section = page.locator(".bd-sidebar-secondary nav a", has_text="Linear maps").first
    if page.screen == "phone":
        assert not on_screen(section), "the chapter's contents are open before tapping their button"
        page.locator(".secondary-toggle >> visible=true").click()
        page.wait_for_timeout(500)  # the sidebar slides in
    assert on_screen(section), f"{page.screen}: the chapter's contents are not on the screen"
    section.click()
    page.wait_for_function("() => location.hash.length > 1")
    if page.screen == "phone":
        page.wait_for_timeout(500)  # the sidebar slides out
        assert not on_screen(section), "the chapter's contents stay open over the text after a tap on a section"
    assert not page.problems, "; ".join(page.problems)


def test_search_finds_a_chapter_and_quotes_it_without_tex(page, server, site):
    page.goto(f"{server}/search.html?q=softmax", wait_until="networkidle")
    results = page.locator("#search-results li a")
    results.first.wait_for(timeout=15000)
    targets = [results.nth(i).get_attribute("href") for i in range(results.count())]
    assert any("chapters/02_pooling" in t for t in targets), f"searching 'softmax' found {targets}"
    assert "chapters/" in targets[0], f"a chapter should come first, not {targets[0]} ({targets[:4]})"
    page.wait_for_function("() => document.querySelectorAll('#search-results li p.context').length >= 3",
                           timeout=15000)
    snippets = page.locator("#search-results li p.context").all_inner_texts()
    raw = [s for s in snippets if RAW_TEX.search(s)]
    assert not raw, f"search snippets show TeX source: {raw[:2]}"
    chapter = page.locator("#search-results li", has=page.locator("a[href*='chapters/02_pooling']")).first
    quoted = " ".join(chapter.locator("p.context").inner_text().strip(". \n").split())
    contents = html.unescape(re.sub(r"<[^>]+>", " ", re.search(r'<nav class="bd-toc-nav page-toc".*?</nav>', (
        site / "book" / "chapters" / "02_pooling.html").read_text(), re.S).group(0)))
    assert quoted[:40] not in " ".join(contents.split()), f"the snippet quotes the list of sections: {quoted!r}"
    assert not page.problems, "; ".join(page.problems)
