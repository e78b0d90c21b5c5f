"""The website in a real browser: Chromium (from the system packages, driven by Playwright) reads
the built site from a local static server with no network, and every page must render: text,
typeset math, loaded figures, working navigation and search, and a clean console. A screenshot
of each page is kept in _build/test-artifacts/screenshots/.
"""
import functools
import os
import shutil
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest

from grading.course import REPO, chapters

SCREENSHOTS = REPO / "_build" / "test-artifacts" / "screenshots"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-sync",
                  "--disable-background-networking", "--disable-component-update"]
PAGES = ["book/intro", "book/students", "book/instructors", "book/bibliography", "book/api",
         *[f"book/chapters/{c}" for c in chapters()]]


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


@pytest.fixture
def page(browser, server):
    """A fresh tab that records console errors, page errors and every request that failed or left the machine."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    tab.problems = []
    tab.on("console", lambda m: m.type == "error" and tab.problems.append(f"console: {m.text}"))
    tab.on("pageerror", lambda e: tab.problems.append(f"page error: {e}"))
    tab.on("requestfailed", lambda r: tab.problems.append(f"failed request: {r.url}"))
    tab.on("response", lambda r: r.status >= 400 and tab.problems.append(f"HTTP {r.status}: {r.url}"))
    tab.on("request", lambda r: r.url.startswith(server) or r.url.startswith("data:")
           or tab.problems.append(f"request off the machine: {r.url}"))
    yield tab
    context.close()


@pytest.mark.parametrize("name", PAGES)
def test_page_renders_completely_offline(page, server, name):
    page.goto(f"{server}/{name}.html", wait_until="networkidle")
    heading = page.locator("main h1 >> visible=true").first
    assert heading.is_visible() and heading.inner_text().strip(), f"{name}: blank page (no visible title)"
    assert len(page.locator("main").inner_text()) > 200, f"{name}: the page has almost no text"

    if page.locator("main .math").count():
        try:
            page.wait_for_function("() => window.MathJax && MathJax.startup && MathJax.startup.promise", timeout=15000)
        except pytest.importorskip("playwright.sync_api").TimeoutError:
            pytest.fail(f"{name}: MathJax never loaded, so its math is not typeset ({'; '.join(page.problems)})")
        page.evaluate("() => MathJax.startup.promise")
        typeset = page.locator("main mjx-container").count()
        assert typeset >= page.locator("main .math").count(), f"{name}: math is not typeset ({typeset} formulas)"
        assert page.locator("main mjx-merror").count() == 0, f"{name}: MathJax reports a TeX error"

    broken = page.evaluate("() => [...document.querySelectorAll('main img')]"
                           ".filter(i => !i.complete || i.naturalWidth === 0).map(i => i.src)")
    assert not broken, f"{name}: figures failed to load: {broken}"

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"{name.replace('/', '__')}.png", full_page=True)
    assert not page.problems, f"{name}: " + "; ".join(page.problems)


@pytest.mark.parametrize("chapter", chapters())
def test_chapter_figures_are_drawn(page, server, chapter):
    page.goto(f"{server}/book/chapters/{chapter}.html", wait_until="networkidle")
    sizes = page.evaluate("() => [...document.querySelectorAll('main .cell_output img')].map(i => i.naturalWidth)")
    assert sizes and all(width > 100 for width in sizes), f"{chapter}: figures missing or empty: {sizes}"


def test_navigation_from_the_landing_page_reaches_a_chapter(page, server):
    page.goto(f"{server}/index.html", wait_until="networkidle")  # redirects to the landing page
    assert page.url.endswith("book/intro.html")
    page.locator("nav.bd-links a", has_text="From tokens to vectors").first.click()
    page.wait_for_load_state("networkidle")
    assert page.url.endswith("book/chapters/01_tokens.html")
    assert "From tokens to vectors" in page.locator("main h1 >> visible=true").first.inner_text()
    assert not page.problems, "; ".join(page.problems)


def test_search_finds_a_chapter(page, server):
    page.goto(f"{server}/search.html?q=vocabulary", wait_until="networkidle")
    results = page.locator("#search-results li a")
    results.first.wait_for(timeout=15000)
    targets = [results.nth(i).get_attribute("href") for i in range(results.count())]
    assert any("chapters/01_tokens" in t for t in targets), f"searching 'vocabulary' found {targets}"
    assert not page.problems, "; ".join(page.problems)
