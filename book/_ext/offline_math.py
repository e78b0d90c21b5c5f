"""Math typeset offline: the site serves its own copy of MathJax 3.

The MathJax files come from the pinned PyPI package django-static-mathjax (MathJax 3.2.2,
Apache-2.0; it needs no Django to be installed). After an HTML build, the parts a page uses
are copied to _static/mathjax/, and ``mathjax_path`` (set in _config.yml) points there.
"""
import shutil
from pathlib import Path

import mathjax

SOURCE = Path(mathjax.__file__).parent / "static" / "mathjax"
# source in the package -> place under _static/mathjax/ (MathJax finds fonts and extensions beside its script)
NEEDED = {
    "es5/tex-chtml.js": "tex-chtml.js",
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


def setup(app):
    app.connect("build-finished", copy_mathjax)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
