"""Math typeset offline: the site serves its own copy of MathJax 3.

The MathJax files come from the pinned PyPI package django-static-mathjax (MathJax 3.2.2,
Apache-2.0; it needs no Django to be installed). After an HTML build, the parts a page uses
are copied to _static/mathjax/, and ``mathjax_path`` (set in _config.yml) points there.

A page loads MathJax's loader and the components it names (``LOADED``), not the combined
``tex-chtml.js``: that file also holds the contextual menu (nearly half of its 1.2 MB), which the pages do
without. Assistive MathML stays: screen readers read each formula from it. Pages without a formula
load no MathJax at all (light_pages.py).
"""
import shutil
from pathlib import Path

import mathjax

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


def setup(app):
    app.connect("config-inited", load_components)
    app.connect("build-finished", copy_mathjax)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
