"""The diagrams of book/diagrams/: drawn from the committed code, shown by their chapter with alt text and a caption.

Each diagram is an SVG file (the website) and a PNG attachment of a markdown cell of its chapter's
solution notebook (the notebooks), both drawn by book/diagrams/make_diagrams.py.
"""
import base64
import json
import re
import subprocess
import sys

import pytest

from grading.instructor.course import NOTEBOOKS, REPO, SOLUTIONS

DIAGRAMS = REPO / "book" / "diagrams"
IMAGE = re.compile(r"!\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(attachment:([\w.-]+)\.png\)\n\n(.*)")
NAMES = sorted(path.stem for path in DIAGRAMS.glob("*.svg"))


def markdown_cells(folder, chapter: str) -> list[dict]:
    return [cell for path in sorted((folder / chapter).glob("*.ipynb"))
            for cell in json.loads(path.read_text())["cells"] if cell["cell_type"] == "markdown"]


def shown(folder, name: str) -> list[tuple[str, str, dict]]:
    """(alt text, the line after the image, the cell's attachments) of every image of `name` in the chapter."""
    chapter = next((c.name for c in folder.glob(f"{name[:2]}_*") if c.is_dir()), None)
    if chapter is None:
        pytest.skip(f"chapter {name[:2]} has no folder in {folder.name}/ yet: nothing can show {name}")
    return [(alt, after, cell.get("attachments", {})) for cell in markdown_cells(folder, chapter)
            for alt, image, after in IMAGE.findall("".join(cell["source"])) if image == name]


def test_there_is_a_diagram_for_every_chapter():
    assert len(NAMES) >= 15
    chapters = {path.name[:2] for path in SOLUTIONS.iterdir() if path.is_dir()}
    assert chapters <= {name[:2] for name in NAMES}, "a chapter has no diagram"


def test_the_svg_files_and_the_notebooks_attachments_are_what_the_code_draws():
    check = subprocess.run([sys.executable, str(DIAGRAMS / "make_diagrams.py"), "--check"], cwd=REPO,
                           capture_output=True, text=True)
    assert check.returncode == 0, ("stale diagrams: run `python book/diagrams/make_diagrams.py`, then `make release`\n"
                                   f"{check.stdout}{check.stderr}")


@pytest.mark.parametrize("name", NAMES)
def test_each_diagram_is_shown_by_its_chapter_with_alt_text_and_a_caption(name):
    images = shown(SOLUTIONS, name)
    assert len(images) == 1, f"{name}: its chapter's solution notebook should show it once, not {len(images)} times"
    alt, after, attachments = images[0]
    assert len(alt.split()) >= 12, f"{name}: the alt text should describe the diagram, not name it: {alt!r}"
    assert re.fullmatch(r"\*[^*].*[^*]\*", after), f"{name}: a one-line caption in italics should follow the image"
    png = base64.b64decode(attachments[f"{name}.png"]["image/png"])
    assert png.startswith(b"\x89PNG"), f"{name}: the attachment is not a PNG"
    svg = (DIAGRAMS / f"{name}.svg").read_text()
    assert "<text" in svg, f"{name}: the SVG's labels should be text, not paths"


@pytest.mark.parametrize("name", NAMES)
def test_the_student_notebook_shows_the_same_diagram(name):
    solution, student = shown(SOLUTIONS, name), shown(NOTEBOOKS, name)
    assert student == solution, f"{name}: notebooks/ lags behind solutions/: run `make release`"


def test_every_image_attachment_of_a_chapter_is_a_diagram_of_this_folder():
    """make_pages points attachment:<name>.png at book/diagrams/<name>.svg, which must exist."""
    for chapter in sorted(path.name for path in SOLUTIONS.iterdir() if path.is_dir()):
        for cell in markdown_cells(SOLUTIONS, chapter):
            for name in re.findall(r"\(attachment:([\w.-]+)\.png\)", "".join(cell["source"])):
                assert (DIAGRAMS / f"{name}.svg").is_file(), f"{chapter} shows {name}.png, which has no SVG here"
