"""The reader's page, in the HTML the theme and MyST-NB write: names that say what a control opens,
roles that assistive technology understands.

- A collapsed visible-test cell's toggle is named by its text ("Show the notebook's visible tests"),
  not by MyST-NB's fixed ``aria-label`` "Toggle hidden content", the same on every toggle.
- The Sources page's entries are items of their list (sphinxcontrib-bibtex gives them the deprecated
  role ``doc-biblioentry``, which a list may not hold).
- The sidebar with the course's title and chapter list is a landmark (``complementary``), so that a
  screen reader's list of regions reaches the title too.
- The search button that shows "Search Ctrl+K" is named so (the theme names it "Search", which voice
  control users would not say), and says which keys open the search.
- A table header cell left empty in the notebook (a spacer column, a table without header) is an
  ordinary cell: a header must name its column.
"""
import re
from pathlib import Path

TOGGLE_LABEL = '<summary aria-label="Toggle hidden content">'
SIDEBAR = '<div class="bd-sidebar-primary bd-sidebar">'
SIDEBAR_LANDMARK = '<div class="bd-sidebar-primary bd-sidebar" role="complementary" aria-label="The course">'
SEARCH_FIELD = '<button class="btn search-button-field search-button__button" title="Search" aria-label="Search"'
SEARCH_FIELD_NAMED = ('<button class="btn search-button-field search-button__button" title="Search" '
                      'aria-label="Search Ctrl+K" aria-keyshortcuts="Control+K"')
# In the theme's template (no page context holds it): replaced in the built pages.
TEMPLATE = {SIDEBAR: SIDEBAR_LANDMARK, SEARCH_FIELD: SEARCH_FIELD_NAMED}
EMPTY_HEADER = re.compile(r'<th class="head([^"]*)"><p></p></th>')


def name_toggles(app, pagename, templatename, context, doctree) -> None:
    if "body" in context:
        context["body"] = EMPTY_HEADER.sub(r'<td class="head\1"></td>', context["body"].replace(
            TOGGLE_LABEL, "<summary>").replace('role="doc-biblioentry"', 'role="listitem"'))


def name_template_parts(app, exception) -> None:
    """The sidebar's role and the search button's name, which the theme's template writes, in the built pages."""
    if exception is not None or app.builder.format != "html":
        return
    for page in Path(app.outdir).rglob("*.html"):
        html = page.read_text()
        named = html
        for theme, reader in TEMPLATE.items():
            named = named.replace(theme, reader)
        if named != html:
            page.write_text(named)


def setup(app):
    app.connect("html-page-context", name_toggles)
    app.connect("build-finished", name_template_parts)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
