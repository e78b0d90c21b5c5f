"""The book as one PDF, as d2l offers one: every page of the built website in the order of its table of contents
(the chapters as readers see them: figures, typeset formulas, no solution code), printed by headless Chromium (the
browser the website's tests drive, through Playwright) and put together with pypdf.

- a title and contents page first: each part's pages with the page each starts on;
- every page of the site printed as the browser prints it (the theme's print style: no sidebars or buttons), its
  headings as the PDF's bookmarks (Chromium's document outline), under the page's title;
- a page number at the foot of every page (a page of numbers printed by Chromium, laid over each page);
- links from one page of the site to another go to that page in the PDF; links to the web stay.

The website links the PDF from its first page once it is built (book/_ext/book_pdf.py): `make pdf` builds the
site, then this, then the site again (only its first page changes). It reads the site from a local server, so
it works offline.

Usage: python book/make_pdf.py [--site _build/html] [--out _build/pdf/<NAME>]
"""
import argparse
import functools
import html
import io
import os
import shutil
import sys
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import yaml
from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, DictionaryObject, NameObject

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "book" / "_ext"))
from book_pdf import NAME  # noqa: E402 (the file that the website links)
PAGE = {"format": "A4", "margin": {"top": "16mm", "bottom": "18mm", "left": "14mm", "right": "14mm"}}
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-sync",
                  "--disable-background-networking", "--disable-component-update"]
STYLE = """body { font-family: sans-serif; margin: 0; } h1 { font-size: 26pt; margin: 30mm 0 6mm; }
p.by { margin: 0 0 18mm; color: #555; } h2 { font-size: 15pt; margin: 8mm 0 2mm; }
ol { list-style: none; padding: 0; margin: 0; } li { display: flex; font-size: 11pt; line-height: 1.7; }
li .title { flex: 1; } li .dots { flex: 1; border-bottom: 1px dotted #888; margin: 0 2mm 1.3ex; }"""
NUMBER = ('<div style="width: 100%; text-align: center; font-size: 9pt; font-family: sans-serif; color: #555;">'
          '<span class="pageNumber"></span></div>')


def chromium_path() -> str | None:
    """The system's Chromium (CHROMIUM names another), as the browser tests find it."""
    return os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


def toc(repo: Path = REPO) -> list[tuple[str | None, str]]:
    """(the part's caption, the page's HTML path) for every page of _toc.yml, the root first (no part)."""
    spec = yaml.safe_load((repo / "_toc.yml").read_text())
    return [(None, f"{spec['root']}.html"),
            *((part["caption"], f"{entry['file']}.html") for part in spec["parts"] for entry in part["chapters"])]


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


def serve(site: Path) -> tuple[ThreadingHTTPServer, str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def print_page(tab, url: str) -> tuple[str, bytes]:
    """(the page's title, the page as a PDF): every image loaded (none left for later), formulas typeset."""
    tab.goto(url, wait_until="networkidle")
    tab.evaluate("() => document.querySelectorAll('img[loading]').forEach(i => i.loading = 'eager')")
    tab.wait_for_function("() => [...document.images].every(i => i.complete)")
    if tab.evaluate("() => !!(window.MathJax && MathJax.startup)"):  # a site built without Node
        tab.evaluate("() => MathJax.startup.promise")
    title = tab.locator("main h1").first.inner_text().replace("#", "").strip()
    return title, tab.pdf(outline=True, tagged=True, print_background=True, **PAGE)


def contents_page(tab, title: str, entries: list[tuple[str | None, str, int]]) -> bytes:
    """The title and contents page: each part's pages and the page where each starts."""
    rows, part = [], object()
    for caption, name, number in entries:
        if caption != part:
            rows.append(f"</ol><h2>{html.escape(caption)}</h2><ol>" if caption else "")
            part = caption
        rows.append(f'<li><span class="title">{html.escape(name)}</span><span class="dots"></span>'
                    f"<span>{number}</span></li>")
    tab.set_content(f"<!DOCTYPE html><html><head><meta charset='utf-8'><style>{STYLE}</style></head><body>"
                    f"<h1>{html.escape(title)}</h1><p class='by'>The course website as one book</p>"
                    f"<h2>Contents</h2><ol>{''.join(rows)}</ol></body></html>")
    return tab.pdf(print_background=True, **PAGE)


def page_numbers(tab, count: int) -> PdfReader:
    """``count`` empty pages with their numbers at the foot, to lay over the book's pages."""
    tab.set_content("<div style='break-after: page'>&nbsp;</div>" * count)
    return PdfReader(io.BytesIO(tab.pdf(display_header_footer=True, header_template="<span></span>",
                                        footer_template=NUMBER, **PAGE)))


def link_within(writer: PdfWriter, server: str, starts: dict[str, int]) -> None:
    """Links to a page of the site (the local server) go to its first page in the PDF, or go if it is not in it."""
    for page in writer.pages:
        if "/Annots" not in page:
            continue
        kept = ArrayObject()
        for reference in page["/Annots"].get_object():
            annotation = reference.get_object()
            uri = annotation.get("/A", {}).get("/URI")
            if uri is None or not str(uri).startswith(server):
                kept.append(reference)
                continue
            path = urlsplit(str(uri)).path.lstrip("/")
            if path in starts:
                annotation[NameObject("/A")] = DictionaryObject({
                    NameObject("/S"): NameObject("/GoTo"),
                    NameObject("/D"): ArrayObject([writer.pages[starts[path]].indirect_reference,
                                                   NameObject("/Fit")])})
                kept.append(reference)
        if kept:
            page[NameObject("/Annots")] = kept
        else:
            del page["/Annots"]


def make_pdf(site: Path, out: Path, executable: str, repo: Path = REPO) -> int:
    """The book from the built site ``site`` into ``out``; its number of pages."""
    from playwright.sync_api import sync_playwright

    server, url = serve(site)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
            tab = browser.new_page()
            printed = []
            for caption, path in toc(repo):
                title, data = print_page(tab, f"{url}/{path}")
                printed.append((caption, path, title, PdfReader(io.BytesIO(data))))
                print(f"  {path}: {len(printed[-1][3].pages)} pages", flush=True)
            book_title = yaml.safe_load((repo / "_config.yml").read_text())["title"]
            lead = 1  # the pages before the first page of the site: the contents, as long as it is
            while True:
                entries, number = [], lead + 1
                for caption, _, title, reader in printed:
                    entries.append((caption, title, number))
                    number += len(reader.pages)
                contents = PdfReader(io.BytesIO(contents_page(tab, book_title, entries)))
                if len(contents.pages) == lead:
                    break
                lead = len(contents.pages)
            writer = PdfWriter()
            writer.append(contents, import_outline=False)
            writer.add_outline_item(title="Contents", page_number=0)
            starts = {}
            for (caption, path, title, reader), (_, _, number) in zip(printed, entries):
                starts[path] = number - 1
                writer.append(reader, import_outline=True)
            numbers = page_numbers(tab, len(writer.pages))
            for page, number in zip(writer.pages, numbers.pages):
                page.merge_page(number)
            link_within(writer, url, starts)
            browser.close()
    finally:
        server.shutdown()
    writer.compress_identical_objects()  # the fonts and styles that every page's PDF carries, once
    writer.add_metadata({"/Title": book_title})
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "wb") as file:
        writer.write(file)
    return len(writer.pages)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, default=REPO / "_build" / "html", help="the built website")
    parser.add_argument("--out", type=Path, help=f"the PDF (default: beside the site, pdf/{NAME})")
    args = parser.parse_args()
    out = args.out or args.site.parent / "pdf" / NAME
    if not (args.site / "index.html").is_file():
        sys.exit(f"no website in {args.site}: build it first (make book)")
    executable = chromium_path()
    if executable is None:
        sys.exit("Chromium is not installed (Debian/Ubuntu: apt-get install chromium, or `make browser` as root; "
                 "CHROMIUM=/path/to/chrome names another): the book's PDF is printed by it")
    start = time.monotonic()
    pages = make_pdf(args.site, out, executable)
    print(f"{out}: {pages} pages, {out.stat().st_size / 1e6:.1f} MB, in {time.monotonic() - start:.0f} s")


if __name__ == "__main__":
    main()
