"""Every figure a chapter draws has a description for readers who cannot see it: the alt text MyST-NB puts on the
page's image comes from the cell's ``mystnb.image.alt`` metadata in the solution notebook. The browser test checks
the built pages; this finds a missing description in a second, before any notebook is run."""
import re

import nbformat
import pytest

from grading.instructor.course import SOLUTIONS

DRAWS = re.compile(r"\bplt\.show\(|\.plot\(|\.imshow\(|\.bar\(|\.scatter\(")


def figure_cells() -> list[tuple[str, nbformat.NotebookNode]]:
    return [(path.parent.name, cell) for path in sorted(SOLUTIONS.glob("*/*.ipynb"))
            for cell in nbformat.read(path, as_version=4).cells
            if cell.cell_type == "code" and DRAWS.search(cell.source)]


def test_the_check_finds_figures():
    assert len(figure_cells()) > 20, "no cell draws a figure: the pattern looks for the wrong thing"


@pytest.mark.parametrize("chapter", sorted(path.parent.name for path in SOLUTIONS.glob("*/*.ipynb")))
def test_every_figure_cell_describes_its_figure(chapter):
    undescribed = [cell.id for name, cell in figure_cells() if name == chapter
                   and len(cell.metadata.get("mystnb", {}).get("image", {}).get("alt", "").split()) < 4]
    assert not undescribed, (f"{chapter}: cells {undescribed} draw a figure without alt text: add "
                             '{"mystnb": {"image": {"alt": "what the figure shows, in words"}}} to their metadata')
