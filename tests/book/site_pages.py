"""What the website's tests read from the sources: the pages of the table of contents, a diagram's labels."""
import re
from pathlib import Path

import yaml

from grading.instructor.course import REPO

FONT_SIZE = re.compile(r"font-size:\s*([\d.]+)px")
VIEW_BOX = re.compile(r'viewBox="\s*[-\d.]+\s+[-\d.]+\s+([\d.]+)')


def toc_pages() -> list[str]:
    """Every page of _toc.yml (the root first), as the path of its source without the suffix."""
    toc = yaml.safe_load((REPO / "_toc.yml").read_text())
    return [toc["root"], *(entry["file"] for part in toc["parts"] for entry in part["chapters"])]


def diagram_label_units(svg: Path) -> tuple[float, float]:
    """(the smallest font size of a diagram's text, the width of its view box), in the SVG's own units."""
    text = svg.read_text()
    return min(float(size) for size in FONT_SIZE.findall(text)), float(VIEW_BOX.search(text).group(1))
