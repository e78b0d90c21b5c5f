"""The reader's page, in the HTML the theme and MyST-NB write: names that say what a control opens,
roles that assistive technology understands.

- A collapsed visible-test cell's toggle is named by its text ("Show the notebook's visible tests"),
  not by MyST-NB's fixed ``aria-label`` "Toggle hidden content", the same on every toggle.
- The Sources page's entries are items of their list (sphinxcontrib-bibtex gives them the deprecated
  role ``doc-biblioentry``, which a list may not hold).
- The sidebar with the course's title and chapter list is a landmark (``complementary``), so that a
  screen reader's list of regions reaches the title too.
"""
from pathlib import Path

TOGGLE_LABEL = '<summary aria-label="Toggle hidden content">'
SIDEBAR = '<div class="bd-sidebar-primary bd-sidebar">'
SIDEBAR_LANDMARK = '<div class="bd-sidebar-primary bd-sidebar" role="complementary" aria-label="The course">'


def name_toggles(app, pagename, templatename, context, doctree) -> None:
    if "body" in context:
        context["body"] = (context["body"].replace(TOGGLE_LABEL, "<summary>")
                           .replace('role="doc-biblioentry"', 'role="listitem"'))


def sidebar_landmark(app, exception) -> None:
    """The theme's template writes the sidebar (no page context holds it): set its role in the built pages."""
    if exception is not None or app.builder.format != "html":
        return
    for page in Path(app.outdir).rglob("*.html"):
        html = page.read_text()
        if SIDEBAR in html:
            page.write_text(html.replace(SIDEBAR, SIDEBAR_LANDMARK))


def setup(app):
    app.connect("html-page-context", name_toggles)
    app.connect("build-finished", sidebar_landmark)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
