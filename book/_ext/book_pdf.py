"""The book's PDF on the website: once `make pdf` has printed it (book/make_pdf.py, into _build/pdf/ beside the
site), the site's first page links it and the build copies it beside the pages; until then neither.

Sphinx rewrites only the pages whose sources changed; the first page is read again whenever the PDF appears,
changes or goes, so that its link follows.
"""
import shutil
from pathlib import Path

NAME = "neural-sequence-models-for-nlp.pdf"  # book/make_pdf.py writes it so
LINK = ('<p class="book-pdf"><a class="reference download" href="{href}" download>'
        "The whole book as one PDF</a> ({pages} pages, {size:.0f} MB): every chapter with its figures and "
        "formulas, for reading offline or printing.</p>")


def _pdf(app) -> Path:
    return Path(app.outdir).parent / "pdf" / NAME


def _state(app) -> str:
    pdf = _pdf(app)
    return f"{pdf.stat().st_mtime_ns}:{pdf.stat().st_size}" if pdf.is_file() else ""


def first_page_follows_the_pdf(app, env, added, changed, removed) -> list[str]:
    """The first page to write again when the PDF is not as it was at the last build."""
    state = _state(app)
    if getattr(env, "book_pdf", "") == state:
        return []
    env.book_pdf = state
    return [app.config.root_doc]


def link_the_pdf(app, pagename, templatename, context, doctree) -> None:
    pdf = _pdf(app)
    if pagename != app.config.root_doc or not pdf.is_file() or "body" not in context:
        return
    from pypdf import PdfReader

    link = LINK.format(href=context["pathto"](NAME, 1), pages=len(PdfReader(pdf).pages), size=pdf.stat().st_size / 1e6)
    body = context["body"]
    heading = body.find("<section", body.find("</h1>"))  # after the introduction, before its first section
    context["body"] = body[:heading] + link + body[heading:] if heading >= 0 else body + link


def copy_the_pdf(app, exception) -> None:
    if exception is None and app.builder.format == "html" and _pdf(app).is_file():
        shutil.copy2(_pdf(app), Path(app.outdir) / NAME)


def setup(app):
    app.connect("env-get-outdated", first_page_follows_the_pdf)
    app.connect("html-page-context", link_the_pdf)
    app.connect("build-finished", copy_the_pdf)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
