"""axe-core (Deque's accessibility engine) on a page, light and dark.

The engine is axe-core 4.14.1 as published on npm (axe-core-4.14.1.tgz, its axe.min.js, MPL-2.0, sha256
29348999450cdf2849a8e70b7912fc2da85a849da39c0d0d5394f51d4a9ed95c), kept in axe-core/ beside this file so that
the tests run offline and always with the same rules. Its experimental rules run too
(label-content-name-mismatch among them), and are listed at the end of the test run. Critical and serious
violations fail the page's test; moderate and minor ones are listed at the end of the test run (conftest.py), so that they are seen
without failing it.
"""
from pathlib import Path

AXE_CORE = Path(__file__).parent / "axe-core" / "axe.min.js"
AXE_VERSION = "4.14.1"
BLOCKING = {"critical", "serious"}
NOTES: list[str] = []  # the moderate and minor violations of the pages the running test checked (its report takes them)
EXPERIMENTAL: set[str] = set()  # the experimental rules that ran for them (tests/book/conftest.py passes both on)
_AXE_SCRIPT = AXE_CORE.read_text()
# The theme's own switch between its light and dark style (pydata-sphinx-theme reads data-theme).
DARK = "() => { document.documentElement.dataset.theme = 'dark'; document.documentElement.dataset.mode = 'dark'; }"
# ... after which Bootstrap's buttons fade their text and background to the new colours (0.15 s): axe must read
# them once the transitions have ended, not halfway, where both are grey (the search button failed so, now and then)
SETTLED = ("() => Promise.all(document.getAnimations().filter(a => a instanceof CSSTransition)"
           ".map(a => a.finished.catch(() => null)))")


def _violations(page, name: str, scheme: str) -> list[str]:
    # preload False: axe would fetch the style sheets again to read them, and resolves the theme's
    # @import "../basic.css" against the site's root (a 404); only its css-orientation-lock rule needs them.
    if not page.evaluate("() => typeof axe === 'object'"):
        page.evaluate(_AXE_SCRIPT)
    experimental = page.evaluate("() => axe.getRules(['experimental']).map(rule => rule.ruleId)")
    EXPERIMENTAL.update(experimental)
    results = page.evaluate("options => axe.run(document, options)", {
        "resultTypes": ["violations"], "preload": False, "rules": {rule: {"enabled": True} for rule in experimental}})
    assert results["testEngine"]["version"] == AXE_VERSION, f"axe-core {results['testEngine']}, not {AXE_VERSION}"
    blocking = []
    for violation in results["violations"]:
        targets = [" ".join(map(str, node["target"])) for node in violation["nodes"]]
        line = (f"{name} ({scheme}): {violation['impact']} {violation['id']}: {violation['help']} "
                f"({len(targets)}: {', '.join(targets[:3])})")
        (blocking if violation["impact"] in BLOCKING else NOTES).append(line)
    return blocking


# The theme's "Back to top" button, which shows once the reader scrolls back up a long page: shown, so that
# axe reads its colours too.
BACK_TO_TOP = "() => { const button = document.getElementById('pst-back-to-top'); if (button) button.style.display = 'block'; }"


def accessibility_problems(page, name: str) -> list[str]:
    """The critical and serious violations on the page in light mode, then in dark mode."""
    page.evaluate(BACK_TO_TOP)
    problems = _violations(page, name, "light")
    page.evaluate(DARK)
    page.evaluate(SETTLED)
    return problems + _violations(page, name, "dark")
