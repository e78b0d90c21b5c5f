"""No thebe "live code" on the website.

Jupyter Book always loads sphinx-thebe, which runs code on a remote Jupyter server fetched
from a CDN; that cannot work offline, and its inline script lands on every page twice (a
JavaScript error). Readers run the notebooks through the launch buttons instead, so this
removes thebe's scripts from every page, and the configuration it writes into each page's text.
"""
import re

THEBE_CONFIG = re.compile(r'\s*<script type="text/x-thebe-config">.*?</script>\s*<script>kernelName = [^<]*</script>', re.S)


def drop_thebe_scripts(app, pagename, templatename, context, doctree) -> None:
    context["script_files"] = [
        script for script in context.get("script_files", [])
        if "thebe" not in str(script).lower() and "THEBE" not in getattr(script, "attributes", {}).get("body", "")
    ]
    if "body" in context:
        context["body"] = THEBE_CONFIG.sub("", context["body"])


def setup(app):
    app.connect("html-page-context", drop_thebe_scripts, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
