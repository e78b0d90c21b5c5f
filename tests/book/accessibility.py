"""axe-core (Deque's accessibility engine, bundled by the pinned axe-playwright-python) on a page, light and dark.

Critical and serious violations fail the page's test; moderate and minor ones are listed at the end of
the test run (conftest.py), so that they are seen without failing it.
"""
from axe_playwright_python.sync_playwright import Axe

BLOCKING = {"critical", "serious"}
NOTES: list[str] = []  # the moderate and minor violations of every page checked, for the run's summary
_AXE = Axe()
# The theme's own switch between its light and dark style (pydata-sphinx-theme reads data-theme).
DARK = "() => { document.documentElement.dataset.theme = 'dark'; document.documentElement.dataset.mode = 'dark'; }"
# ... after which Bootstrap's buttons fade their text and background to the new colours (0.15 s): axe must read
# them once the transitions have ended, not halfway, where both are grey (the search button failed so, now and then)
SETTLED = ("() => Promise.all(document.getAnimations().filter(a => a instanceof CSSTransition)"
           ".map(a => a.finished.catch(() => null)))")


def _violations(page, name: str, scheme: str) -> list[str]:
    # preload False: axe would fetch the style sheets again to read them, and resolves the theme's
    # @import "../basic.css" against the site's root (a 404); only its css-orientation-lock rule needs them.
    results = _AXE.run(page, options={"resultTypes": ["violations"], "preload": False})
    blocking = []
    for violation in results.response["violations"]:
        targets = [" ".join(map(str, node["target"])) for node in violation["nodes"]]
        line = (f"{name} ({scheme}): {violation['impact']} {violation['id']}: {violation['help']} "
                f"({len(targets)}: {', '.join(targets[:3])})")
        (blocking if violation["impact"] in BLOCKING else NOTES).append(line)
    return blocking


def accessibility_problems(page, name: str) -> list[str]:
    """The critical and serious violations on the page in light mode, then in dark mode."""
    problems = _violations(page, name, "light")
    page.evaluate(DARK)
    page.evaluate(SETTLED)
    return problems + _violations(page, name, "dark")
