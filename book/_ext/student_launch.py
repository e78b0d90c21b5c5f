"""Launch buttons of a chapter page open the *student* notebook, not the page's own source.

A chapter page is made from book/chapters/<chapter>.ipynb, a generated file that is not in
the repository. After sphinx-book-theme has built its launch buttons (Binder, JupyterHub,
Colab), this rewrites their target to notebooks/<chapter>/<chapter>.ipynb, the notebook a
student works in.
"""
from urllib.parse import quote, quote_plus

PAGES = "book/chapters/"


def student_notebook(pagename: str) -> str:
    chapter = pagename.removeprefix(PAGES)
    return f"notebooks/{chapter}/{chapter}.ipynb"


def _retarget(buttons: list, old: str, new: str) -> None:
    for button in buttons:
        if button.get("url", "").startswith("http"):  # launch buttons; the download button stays local
            for encode in (str, quote, quote_plus):
                button["url"] = button["url"].replace(encode(old), encode(new))
        _retarget(button.get("buttons", []), old, new)


def retarget_launch_buttons(app, pagename, templatename, context, doctree) -> None:
    if pagename.startswith(PAGES):
        _retarget(context.get("header_buttons", []), f"{pagename}.ipynb", student_notebook(pagename))


def setup(app):
    app.connect("html-page-context", retarget_launch_buttons, priority=600)  # after the theme's 501
    return {"parallel_read_safe": True, "parallel_write_safe": True}
