"""Launch and download buttons of a chapter page give the *student* notebook, not the page's own source.

A chapter page is made from book/chapters/<chapter>.ipynb, a generated file that is not in
the repository and has lost nbgrader's metadata. After sphinx-book-theme has built its buttons,
this rewrites the launch buttons (Binder, JupyterHub, Colab) to open
notebooks/<chapter>/<chapter>.ipynb, the notebook a student works in, and points the download
buttons at a copy of that notebook, which it puts into the built site at the same path.

A student notebook that gives an earlier chapter's answers as a tool (chapter 06 gives chapter
05's LSTM) is held back as the student release holds it back (grading.instructor.release.student):
until those answers are released (autograder/student_release.json), its page has no download or
launch button and the site holds no copy of it, since the website is public; the page says so, and
when the notebook will come (once the answers it shows are released, after their deadline).

Until ``repository.url`` in _config.yml names the course's student repository (it names the
placeholder ``your-org`` as shipped), no page has a repository or launch button, which would open
nothing, and the build says what to configure (on its error output, without failing ``-W``). Once it
names one, the build likewise warns of every student notebook whose install cell names another (notebooks/
made before it was configured): run ``make release``, whose notebooks name it, then build again.
"""
import re
import sys
from functools import cache
import shutil
from pathlib import Path
from urllib.parse import quote, quote_plus

PAGES = "book/chapters/"
DOWNLOADS = ("download-notebook-button", "download-source-button")
UNCONFIGURED = ("no student repository is configured: the website has no GitHub, Binder or Colab button, and the "
                "notebooks' install cell (for Colab) says that it knows no repository to install from. Set repository.url in _config.yml to the "
                "student repository (book/instructors.md), then run `make release` and build again.")
# The student repository that a student notebook's install cell names, in the notebook's JSON.
INSTALLS_FROM = re.compile(r'COURSE_REPOSITORY = \\"([^"\\]*)\\"')
STALE = ("the website's student notebooks install the course from another repository than {url}, which "
         "_config.yml names (so the notebooks downloaded from it cannot install it on Colab): {stale}. Run "
         "`make release`, whose notebooks name it, and build again.")
HELD_BACK = ("\n<div class=\"admonition note held-back\">\n<p class=\"admonition-title\">The exercise notebook comes later"
             "</p>\n<p>This chapter's exercise notebook gives the answers of chapter {chapters} as tools, so it is "
             "published once those answers are, after that chapter's deadline; your instructor announces it. "
             "Until then, read the chapter here.</p>\n</div>\n")


@cache
def held_back() -> dict[str, list[str]]:
    """Chapters whose student notebook shows answers not yet released, with the chapters whose answers it shows."""
    from grading.instructor.release.student import configured_answers
    from grading.instructor.release.student import held_back as held

    return held(set(configured_answers()))


def configured(app) -> bool:
    from grading.instructor.course import PLACEHOLDER_REPOSITORY

    url = (app.config.html_theme_options or {}).get("repository_url", "")
    return bool(url) and not url.startswith(PLACEHOLDER_REPOSITORY)


def _without(buttons: list, dropped) -> list:
    """The buttons, in their groups, but those for which ``dropped(button)`` is true; a group left empty goes."""
    kept = []
    for button in buttons:
        if dropped(button):
            continue
        if "buttons" in button:
            button["buttons"] = _without(button["buttons"], dropped)
            if not button["buttons"]:
                continue
        kept.append(button)
    return kept


def _link(button) -> bool:  # a launch button or a link to the repository
    return button.get("url", "").startswith("http")


def _notebook(button) -> bool:
    return button.get("label") in DOWNLOADS or _link(button)


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
    chapter = pagename.removeprefix(PAGES)
    buttons = context.get("header_buttons", [])
    if not configured(app):
        buttons = _without(buttons, _link)
    if pagename.startswith(PAGES) and chapter in held_back():
        buttons = _without(buttons, _notebook)
        shown = " and ".join(other[:2] for other in held_back()[chapter])
        body = context.get("body", "")
        title_end = body.find("</h1>")  # the note goes under the chapter's title
        under = title_end + len("</h1>") if title_end >= 0 else 0
        context["body"] = body[:under] + HELD_BACK.format(chapters=shown) + body[under:]
    elif pagename.startswith(PAGES):
        student = student_notebook(pagename)
        _retarget(buttons, f"{pagename}.ipynb", student, context["pathto"](student, 1))
        buttons = _deduplicated(buttons)
    context["header_buttons"] = buttons


def copy_student_notebooks(app, exception) -> None:
    """Put every chapter's student notebook into the built site, where the download buttons point."""
    if exception is not None or app.builder.format != "html":
        return
    stale = []
    for pagename in sorted(app.env.found_docs):
        if pagename.startswith(PAGES) and pagename.removeprefix(PAGES) not in held_back():
            student = student_notebook(pagename)
            target = Path(app.outdir) / student
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(Path(app.srcdir) / student, target)
            installs_from = INSTALLS_FROM.search(target.read_text())
            named = installs_from.group(1) if installs_from else ""
            if configured(app) and named != app.config.html_theme_options["repository_url"]:
                stale.append(f"{student} names {named or 'none'}")
    if stale:
        url = app.config.html_theme_options["repository_url"]
        print(f"warning: {STALE.format(url=url, stale='; '.join(stale))}", file=sys.stderr)


def warn_unconfigured(app) -> None:
    if app.builder.format == "html" and not configured(app):
        print(f"warning: {UNCONFIGURED}", file=sys.stderr)


def setup(app):
    app.connect("builder-inited", warn_unconfigured)
    app.connect("html-page-context", retarget_buttons, priority=600)  # after the theme's 501
    app.connect("build-finished", copy_student_notebooks)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
