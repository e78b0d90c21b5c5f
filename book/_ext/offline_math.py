"""Math typeset offline: at build time, by the site's own copy of MathJax 3 run under Node.

The MathJax files come from the pinned PyPI package django-static-mathjax (MathJax 3.2.2,
Apache-2.0; it needs no Django to be installed). After an HTML build, the formulas of every page
written are typeset by MathJax under Node (typeset_math.js, one process for the whole build) into the
CommonHTML that MathJax would have made in the reader's browser, with the style sheet of exactly
those formulas in the page's head: the page loads MathJax's fonts (copied to _static/mathjax/), not
its 0.76 MB of script, and shows its formulas at once. Screen readers read each formula from its
MathML copy (assistive MathML), as before.

Where Node is missing (``node`` not on the PATH) the build says so and the pages typeset their formulas
in the browser: ``mathjax_path`` (set in _config.yml) points at the copy in _static/mathjax/, and a page
loads MathJax's loader and the components it names (``LOADED``), not the combined ``tex-chtml.js``
(which also holds the contextual menu, nearly half of its 1.2 MB). Pages without a formula load no
MathJax at all (light_pages.py).
"""
import html
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import mathjax
from sphinx.util import logging

logger = logging.getLogger(__name__)

SOURCE = Path(mathjax.__file__).parent / "static" / "mathjax"
# source in the package -> place under _static/mathjax/ (MathJax finds fonts and extensions beside its script)
NEEDED = {
    "es5/startup.js": "startup.js",
    "es5/core.js": "core.js",
    "es5/input/tex.js": "input/tex.js",
    "es5/output/chtml.js": "output/chtml.js",
    "es5/output/chtml/fonts/tex.js": "output/chtml/fonts/tex.js",
    "es5/a11y/assistive-mml.js": "a11y/assistive-mml.js",
    "es5/output/chtml/fonts/woff-v2": "output/chtml/fonts/woff-v2",
    "es5/input/tex/extensions": "input/tex/extensions",
    "LICENSE": "LICENSE",
}


def copy_mathjax(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    target = Path(app.outdir) / "_static" / "mathjax"
    for source, destination in NEEDED.items():
        source, destination = SOURCE / source, target / destination
        destination.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, destination, dirs_exist_ok=True)
        else:
            shutil.copy2(source, destination)


LOADED = ["core", "input/tex", "output/chtml", "a11y/assistive-mml"]


def load_components(app, config) -> None:
    """MathJax's loader loads the typesetting components only (MyST-NB adds its own options beside)."""
    config.mathjax3_config = {**(config.mathjax3_config or {}), "loader": {"load": LOADED}}


# A formula as Sphinx writes it (MyST's dollar maths and the math role and directive): inline, or a display
# block that may start with its equation number.
FORMULA = re.compile(r'(<span class="math notranslate nohighlight">)\\\((.*?)\\\)(</span>)'
                     r'|(<div class="math notranslate nohighlight"[^>]*>(?:<span class="eqno">.*?</span>)?)'
                     r'\s*\\\[(.*?)\\\]\s*(</div>)', re.S)
# MathJax in the browser scales its formulas to match the text's ex-height: 119.5 % of its own against the
# theme's font (measured in Chromium); Node has no font to measure, so it is given that scale.
SCALE = 1.195
FONTS = "_static/mathjax/output/chtml/fonts/woff-v2"
NO_NODE = ("Node.js (node) is not installed: the pages typeset their formulas in the browser, each loading "
           "0.76 MB of MathJax; install Node and build again for pages without it")


class Typesetter:
    """One Node process running MathJax for the whole build, started at the first page with a formula."""

    def __init__(self) -> None:
        self.process = None

    def typeset(self, formulas: list[tuple[str, bool]]) -> tuple[list[str], str]:
        if self.process is None:
            self.process = subprocess.Popen(
                ["node", str(Path(__file__).with_name("typeset_math.js")), str(SOURCE / "es5"), str(SCALE)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8")
        self.process.stdin.write(json.dumps({"formulas": formulas}) + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            raise RuntimeError(f"MathJax under Node stopped (exit status {self.process.wait()}) typesetting "
                               f"{len(formulas)} formulas beginning {formulas[0][0]!r}")
        typeset = json.loads(answer)
        return typeset["html"], typeset["css"]

    def close(self) -> None:
        if self.process is not None:
            self.process.stdin.close()
            self.process.wait()
            self.process = None


TYPESETTER = Typesetter()


def typeset_site(app, exception) -> None:
    """Every page's formulas as MathJax's CommonHTML, and their style sheet in its head: the page's text and the
    titles of its contents (written by the theme, outside the text), so each page written in this build."""
    if exception is not None or app.builder.format != "html" or shutil.which("node") is None:
        return
    outdir = Path(app.outdir)
    for page in sorted(outdir.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        found = list(FORMULA.finditer(text))
        if not found:
            continue  # none, or typeset by an earlier build (Sphinx rewrites no page when nothing changed)
        formulas = [(html.unescape(m.group(2) if m.group(1) else m.group(5)), not m.group(1)) for m in found]
        typeset, css = TYPESETTER.typeset(formulas)
        for (tex, _), markup in zip(formulas, typeset):
            if "<mjx-merror" in markup:
                logger.warning(f"{page.relative_to(outdir)}: MathJax cannot typeset the formula {tex!r}")
        text = FORMULA.sub(lambda m, parts=iter(typeset): (m.group(1) or m.group(4)) + next(parts)
                           + (m.group(3) or m.group(6)), text)
        fonts = Path(os.path.relpath(outdir / FONTS, page.parent)).as_posix()
        css = re.sub(r"\s*\n\s*", "", css).replace("MATHJAX-FONTS", fonts)
        page.write_text(text.replace("</head>", f'<style id="mathjax-chtml">{css}</style>\n</head>', 1),
                        encoding="utf-8")
    TYPESETTER.close()


def no_mathjax_script(app, pagename, templatename, context, doctree) -> None:
    """With Node, the page's formulas come typeset (typeset_site): it loads no MathJax."""
    if shutil.which("node") is not None:
        for key in ("script_files", "css_files"):
            context[key] = [asset for asset in context.get(key, []) if not is_mathjax(asset)]


def is_mathjax(asset) -> bool:
    """A script (or its inline configuration) of MathJax's, which Sphinx adds to a page."""
    return "mathjax" in str(asset).lower() or "MathJax" in getattr(asset, "attributes", {}).get("body", "")


def say_without_node(app) -> None:
    if shutil.which("node") is None:
        print(f"note: {NO_NODE}", file=sys.stderr)


def setup(app):
    app.connect("config-inited", load_components)
    app.connect("builder-inited", say_without_node)
    app.connect("html-page-context", no_mathjax_script)
    app.connect("build-finished", typeset_site)
    app.connect("build-finished", copy_mathjax)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
