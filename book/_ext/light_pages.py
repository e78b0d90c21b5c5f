"""Light pages: each page loads the icons it shows and the maths typesetter only if it has maths.

The theme (pydata-sphinx-theme 0.15) loads all of FontAwesome on every page: its JavaScript
(1.5 MB, which swaps every icon for an SVG) and its style sheet and fonts besides (0.4 MB). After
an HTML build this makes one small style sheet and subset fonts with the icons the site uses (its
pages' ``fa-*`` classes and the icon characters of its style sheets, subset with fontTools, which
Matplotlib installs), and points every page at them instead; the JavaScript is no longer loaded.

The notebooks' figures are PNGs at twice their shown size (sharp on phones), in millions of colours;
a plot uses few, so each opaque figure becomes a PNG of 256 colours (Pillow's median-cut quantiser,
which keeps a colour bar's gradient smooth): a third of the bytes, the same picture to the eye. The
results are cached in _build/figures/ by the figure's content (quantising takes a few seconds).

Bootstrap's style sheet (0.2 MB) is mostly utility classes the theme never uses: only the rules whose
classes all appear somewhere in the site (its pages, or its scripts, which add classes such as "show")
are kept, as PurgeCSS would keep them. The theme's, Sphinx's and MyST-NB's style sheets are purged likewise
(80 KB on a chapter page, most of it MyST-NB's rules for widgets and outputs the site has none of). A class
inside ``:not()``, ``:is()``, ``:where()`` or ``:has()`` need not appear (such a selector may apply all the
same), and a selector list is split only at its own commas, not at those inside these.

A code cell's HTML is mostly Pygments' token spans (a third of chapter 04's page): the names, punctuation and
spaces, which its style sheet colours as the code block's own text in both themes (``PLAIN_TOKENS``), are
written as plain text, which looks the same.

MathJax, and the components of it that are loaded, are set in offline_math.py; here a page without
a formula loads none of it (MyST-NB asks Sphinx to put it on every page), nor the style sheets and
scripts of extensions it does not use (sphinx-design's, MyST-NB's on a page without a notebook cell).
"""
import hashlib
import re
import shutil
from pathlib import Path

from fontTools import subset
from offline_math import is_mathjax
from PIL import Image
from sphinx.util import logging

logger = logging.getLogger(__name__)

VENDOR = "_static/vendor/fontawesome/6.5.2"
ICONS = "_static/icons"
FONTS = {"fa-solid-900": "solid", "fa-regular-400": "regular", "fa-brands-400": "brands"}
# In the theme's layout: the style sheet, the preloaded fonts and the script.
STYLE_LINK = re.compile(r'<link href="([./]*)_static/vendor/fontawesome/[\d.]+/css/all\.min\.css[^"]*" rel="stylesheet" />')
PRELOAD = re.compile(r'\s*<link rel="preload" as="font"[^>]*fontawesome[^>]*/>')
SCRIPT = re.compile(r'\s*<script src="[./]*_static/vendor/fontawesome/[\d.]+/js/all\.min\.js[^"]*"></script>')
ICON_RULE = re.compile(r'((?:\.fa-[a-z0-9-]+:(?::)?before,?)+)\{content:"\\([0-9a-f]+)"\}')
ICON_CLASS = re.compile(r"\bfa-[a-z0-9-]+")
PRIVATE_USE = re.compile(r"[\ue000-\uf8ff]|\\(f[0-9a-f]{3})\b")
MATH = 'class="math'  # an inline or display formula, from MyST's dollar maths or Sphinx's math role


# An extension's files, needed on a page only where its HTML has this sign.
ONLY_WITH = {"sphinx-design.min.css": 'class="sd-', "design-tabs.js": 'class="sd-tab',
             "mystnb.": 'class="cell', "sphinx-thebe.css": 'class="thebe'}


def _needed(asset, body: str) -> bool:
    name = str(asset)
    if is_mathjax(asset):
        return MATH in body
    return all(sign in body for prefix, sign in ONLY_WITH.items() if prefix in name)


def drop_unused_assets(app, pagename, templatename, context, doctree) -> None:
    """No MathJax on a page without a formula, no style or script of an extension the page does not use."""
    body = context.get("body", "")
    for key in ("script_files", "css_files"):
        context[key] = [asset for asset in context.get(key, []) if _needed(asset, body)]


# Pygments' tokens that pygments.css colours as the code block itself (names, punctuation, white space), in the
# light and the dark theme (tests/book/test_website.py checks that it still does).
PLAIN_TOKENS = ("n", "p", "w")
PLAIN_TOKEN = re.compile(r'<span class="(?:%s)">([^<]*)</span>' % "|".join(PLAIN_TOKENS))


def plain_tokens(app, pagename, templatename, context, doctree) -> None:
    """The page's code with its plain tokens as text, without a span each."""
    if "body" in context:
        context["body"] = PLAIN_TOKEN.sub(r"\1", context["body"])


def _pages(outdir: Path) -> list[Path]:
    return [page for page in outdir.rglob("*.html") if "_static" not in page.relative_to(outdir).parts]


def _used_codepoints(outdir: Path, pages: list[Path], rules: dict[str, str]) -> tuple[set[int], set[str]]:
    """The icon characters the site shows: its pages' icon classes, its scripts' and its own style sheets'."""
    names = set()
    for file in [*pages, *(outdir / "_static").rglob("*.js")]:
        if "vendor" not in file.parts and "mathjax" not in file.parts:
            names |= set(ICON_CLASS.findall(file.read_text(errors="replace")))
    codepoints = {int(rules[name], 16) for name in names if name in rules}
    for sheet in (outdir / "_static").rglob("*.css"):
        if "vendor" not in sheet.parts and ICONS not in sheet.as_posix():
            for icon in PRIVATE_USE.finditer(sheet.read_text(errors="replace")):
                codepoints.add(int(icon.group(1), 16) if icon.group(1) else ord(icon.group(0)))
    return codepoints, names


def _style_sheet(css: str, names: set[str]) -> str:
    """FontAwesome's style sheet with the rules of the icons used only, pointing at the subset fonts."""
    def kept(rule: re.Match) -> str:
        selectors = [s for s in rule.group(1).split(",") if s and s.split(":")[0][1:] in names]
        return f'{",".join(selectors)}{{content:"\\{rule.group(2)}"}}' if selectors else ""

    css = ICON_RULE.sub(kept, css)
    css = re.sub(r"@font-face\{[^}]*fa-v4compatibility[^}]*\}", "", css)
    for font, short in FONTS.items():
        css = re.sub(rf'url\(\.\./webfonts/{font}\.woff2\) format\("woff2"\),url\(\.\./webfonts/{font}\.ttf\) '
                     r'format\("truetype"\)', f'url({short}.woff) format("woff")', css)
    return css


def subset_icons(app) -> None:
    outdir = Path(app.outdir)
    css = (outdir / VENDOR / "css" / "all.min.css").read_text()
    rules = {selector.split(":")[0][1:]: code for group, code in ICON_RULE.findall(css)
             for selector in group.split(",") if selector}
    pages = _pages(outdir)
    codepoints, names = _used_codepoints(outdir, pages, rules)
    target = outdir / ICONS
    target.mkdir(parents=True, exist_ok=True)
    (target / "icons.css").write_text(_style_sheet(css, names))
    for font, short in FONTS.items():
        options = subset.Options(flavor="woff", layout_features=["*"])
        subsetter = subset.Subsetter(options)
        with subset.load_font(outdir / VENDOR / "webfonts" / f"{font}.ttf", options) as face:
            subsetter.populate(unicodes=codepoints)
            subsetter.subset(face)
            subset.save_font(face, target / f"{short}.woff", options)
    light_pages = 0  # lightened now, or by an earlier build (Sphinx rewrites no page when nothing changed)
    for page in pages:
        html = page.read_text()
        light = SCRIPT.sub("", PRELOAD.sub("", STYLE_LINK.sub(rf'<link href="\1{ICONS}/icons.css" rel="stylesheet" />',
                                                              html)))
        if light != html:
            page.write_text(light)
        light_pages += f"{ICONS}/icons.css" in light
    if not light_pages:
        logger.warning("light_pages: no page links FontAwesome as pydata-sphinx-theme 0.15 does; nothing was lightened")

def fewer_colours(outdir: Path, cache: Path) -> None:
    cache.mkdir(parents=True, exist_ok=True)
    for figure in (outdir / "_images").glob("*.png"):
        cached = cache / f"{hashlib.sha256(figure.read_bytes()).hexdigest()[:24]}.png"
        if not cached.exists():
            with Image.open(figure) as image:
                if image.mode == "P" or "A" in image.mode and image.getchannel("A").getextrema()[0] < 255:
                    continue  # a palette already, or transparent: kept as it is
                palette = image.convert("RGB").quantize(256, method=Image.Quantize.MEDIANCUT)
            palette.save(cached, optimize=True)
        shutil.copyfile(cached, figure)


PURGED = ("_static/styles/bootstrap.css", "_static/styles/pydata-sphinx-theme.css",
          "_static/styles/sphinx-book-theme.css", "_static/basic.css", "_static/mystnb.*.css")
PSEUDO_CLASS_ARGUMENT = re.compile(r":(?:not|is|where|has)\([^)]*\)")
WORD = re.compile(r"[A-Za-z_][\w-]*")
CLASS = re.compile(r"\.(-?[A-Za-z_][\w-]*)")
COMMENT = re.compile(r"/\*.*?\*/", re.S)
KEPT_WHOLE = ("@font-face", "@keyframes", "@-webkit-keyframes", "@page", "@property")


def _blocks(css: str) -> list[tuple[str, str | None]]:
    """The top-level (prelude, body) pairs of a style sheet without comments; body None for a statement (@import)."""
    blocks, start = [], 0
    while (brace := css.find("{", start)) >= 0:
        semicolon = css.find(";", start)
        if 0 <= semicolon < brace and css[start:semicolon].lstrip().startswith("@"):
            blocks.append((css[start:semicolon + 1], None))
            start = semicolon + 1
            continue
        depth, end = 1, brace + 1
        while depth:
            depth += {"{": 1, "}": -1}.get(css[end], 0)
            end += 1
        blocks.append((css[start:brace], css[brace + 1:end - 1]))
        start = end
    return blocks


def _selectors(prelude: str) -> list[str]:
    """A selector list's selectors: split at its commas, not at those inside parentheses (``:is(.a, .b)``)."""
    selectors, depth, start = [], 0, 0
    for at, character in enumerate(prelude):
        depth += {"(": 1, ")": -1}.get(character, 0)
        if character == "," and depth == 0:
            selectors.append(prelude[start:at])
            start = at + 1
    return [*selectors, prelude[start:]]


def purged(css: str, used: set[str]) -> str:
    """The rules of ``css`` whose selectors name only classes in ``used`` (a selector list keeps those that do)."""
    kept = []
    for prelude, body in _blocks(COMMENT.sub("", css)):
        head = prelude.strip()
        if body is None or head.startswith(KEPT_WHOLE):
            kept.append(prelude if body is None else f"{prelude}{{{body}}}")
        elif head.startswith("@"):
            if inner := purged(body, used):
                kept.append(f"{prelude}{{{inner}}}")
        elif selectors := [s for s in _selectors(prelude)
                           if set(CLASS.findall(PSEUDO_CLASS_ARGUMENT.sub("", s))) <= used]:
            kept.append(f"{','.join(selectors)}{{{body}}}")
    return "".join(kept)


def purge_style_sheets(outdir: Path) -> None:
    used = set()
    for file in [*_pages(outdir), *(outdir / "_static").rglob("*.js")]:
        if "mathjax" not in file.parts:
            used |= set(WORD.findall(file.read_text(errors="replace")))
    for sheet in (sheet for pattern in PURGED for sheet in outdir.glob(pattern)):
        css = sheet.read_text()
        licence = COMMENT.match(css.lstrip())
        sheet.write_text((licence.group(0) + "\n" if licence else "") + purged(css, used))


def lighten(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    subset_icons(app)
    purge_style_sheets(Path(app.outdir))
    fewer_colours(Path(app.outdir), Path(app.srcdir) / "_build" / "figures")


def setup(app):
    app.connect("html-page-context", drop_unused_assets, priority=900)
    app.connect("html-page-context", plain_tokens)
    app.connect("build-finished", lighten)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
