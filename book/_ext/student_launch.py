"""Launch and download buttons of a chapter page give the *student* notebook, not the page's own source.

A chapter page is made from book/chapters/<chapter>.ipynb, a generated file that is not in
the repository and has lost nbgrader's metadata. After sphinx-book-theme has built its buttons,
this rewrites the launch buttons (Binder, JupyterHub, Colab) to open
notebooks/<chapter>/<chapter>.ipynb, the notebook a student works in, and points the download
buttons at a copy of that notebook, which it puts into the built site at the same path.

A student notebook that gives an earlier chapter's answers as a tool (chapter 06 gives chapter
05's LSTM) is held back as the student release holds it back (grading.instructor.release.student):
until those answers are released (autograder/student_release.json), its page has no download or
launch button and the site holds no copy of it, since the website is public.
"""
from functools import cache
import shutil
from pathlib import Path
from urllib.parse import quote, quote_plus

PAGES = "book/chapters/"
DOWNLOADS = ("download-notebook-button", "download-source-button")


@cache
def held_back() -> frozenset[str]:
    """Chapters whose student notebook shows answers not yet released."""
    from grading.instructor.release.student import configured_answers
    from grading.instructor.release.student import held_back as held

    return frozenset(held(set(configured_answers())))


def _without_notebook_buttons(buttons: list) -> list:
    kept = []
    for button in buttons:
        if button.get("label") in DOWNLOADS or button.get("url", "").startswith("http"):
            continue
        if "buttons" in button:
            button["buttons"] = _without_notebook_buttons(button["buttons"])
            if not button["buttons"]:
                continue
        kept.append(button)
    return kept


def student_notebook(pagename: str) -> str:
    chapter = pagename.removeprefix(PAGES)
    return f"notebooks/{chapter}/{chapter}.ipynb"


def _retarget(buttons: list, old: str, new: str, download: str) -> None:
    for button in buttons:
        if button.get("label") in DOWNLOADS:
            button.update(url=download, text=".ipynb", tooltip="Download the exercise notebook")
        elif button.get("url", "").startswith("http"):  # a launch button
            for encode in (str, quote, quote_plus):
                button["url"] = button["url"].replace(encode(old), encode(new))
        _retarget(button.get("buttons", []), old, new, download)


def _deduplicated(buttons: list) -> list:
    """One download button for the notebook (the page's source and its notebook are the same file)."""
    seen, kept = set(), []
    for button in buttons:
        if "buttons" in button:
            button["buttons"] = _deduplicated(button["buttons"])
        if button.get("url") and button.get("label") in DOWNLOADS:
            if button["url"] in seen:
                continue
            seen.add(button["url"])
        kept.append(button)
    return kept


def retarget_buttons(app, pagename, templatename, context, doctree) -> None:
    if pagename.startswith(PAGES) and pagename.removeprefix(PAGES) in held_back():
        context["header_buttons"] = _without_notebook_buttons(context.get("header_buttons", []))
    elif pagename.startswith(PAGES):
        student = student_notebook(pagename)
        buttons = context.get("header_buttons", [])
        _retarget(buttons, f"{pagename}.ipynb", student, context["pathto"](student, 1))
        context["header_buttons"] = _deduplicated(buttons)


def copy_student_notebooks(app, exception) -> None:
    """Put every chapter's student notebook into the built site, where the download buttons point."""
    if exception is not None or app.builder.format != "html":
        return
    for pagename in app.env.found_docs:
        if pagename.startswith(PAGES) and pagename.removeprefix(PAGES) not in held_back():
            student = student_notebook(pagename)
            target = Path(app.outdir) / student
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(Path(app.srcdir) / student, target)


def setup(app):
    app.connect("html-page-context", retarget_buttons, priority=600)  # after the theme's 501
    app.connect("build-finished", copy_student_notebooks)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
