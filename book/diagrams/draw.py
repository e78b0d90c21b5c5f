"""The drawing kit of the course's diagrams: boxes, circles, arrows and labels on a matplotlib figure.

Coordinates are hundredths of an inch with y growing downwards, as on a page: a canvas 760 wide
is 7.6 inches, 730 px in a browser. Every diagram must read on a white page and on a dark one
(JupyterLab's dark theme, the website in dark mode), so the background stays transparent, text
inside a box is near-black on a pale fill, text outside boxes is a mid grey with a contrast of
about 4:1 on white and on near-black, and lines are mid-tone.

`render` returns the same drawing twice: SVG with its text kept as text (the website shows it,
and it can be edited), and PNG (notebooks embed it: JupyterLab does not display SVG attachments).
"""
import io
from dataclasses import dataclass

import matplotlib
from matplotlib.figure import Figure
from matplotlib.patches import Circle, FancyArrowPatch, FancyBboxPatch, Rectangle

INK = "#1a1a1a"    # text on a pale fill
MUTED = "#7f7f7f"  # text and lines on the page itself, light or dark
HIGHLIGHT = "#e8590c"
ACCENT = "#1c7ed6"

# (fill, edge) of each kind of box; the chapters' roles keep their colours from figure to figure.
COLOURS = {
    "input": ("#d3e3fb", "#4a86d8"),     # tokens, embeddings, inputs
    "state": ("#d3efd3", "#3f9b4a"),     # recurrent states, encoder outputs
    "gate": ("#ffe0bd", "#e07b1a"),      # sigmoid gates
    "tanh": ("#e6d9f6", "#8a63c8"),      # tanh layers, candidates, other nonlinear maps
    "output": ("#f9d3d9", "#d0506a"),    # scores, probabilities, outputs
    "neutral": ("#e6e6e6", "#8c8c8c"),   # operations, parameters
    "padding": ("#f2f2f2", "#a6a6a6"),   # padding and other things that must not count
    "note": ("#fff3c4", "#c9a21a"),      # equations and remarks
}

FONT = {"fontfamily": "DejaVu Sans", "math_fontfamily": "dejavusans"}  # maths in the font of the labels
SIZE = 10.5
SAVING = {"svg.fonttype": "none", "svg.hashsalt": "seqmodels"}  # text stays text; the same ids on every run
# The SVG names only DejaVu Sans for the maths; a browser without it should fall back to a sans serif.
FALLBACK = ("font-family: 'DejaVu Sans';", "font-family: 'DejaVu Sans', Verdana, Arial, sans-serif;")


@dataclass(frozen=True)
class Shape:
    """Where a box or circle sits, with the midpoints of its four sides for attaching arrows."""
    x: float
    y: float
    w: float
    h: float

    @property
    def left(self):
        return (self.x - self.w / 2, self.y)

    @property
    def right(self):
        return (self.x + self.w / 2, self.y)

    @property
    def top(self):
        return (self.x, self.y - self.h / 2)

    @property
    def bottom(self):
        return (self.x, self.y + self.h / 2)


class Canvas:
    """A transparent page of `width` x `height` units; the methods draw on it and return what they drew."""

    def __init__(self, width: float, height: float):
        self.figure = Figure(figsize=(width / 100, height / 100))
        self.ax = self.figure.add_axes((0, 0, 1, 1))
        self.ax.set_xlim(0, width)
        self.ax.set_ylim(height, 0)
        self.ax.set_axis_off()

    def box(self, x, y, w, h, text="", kind="neutral", size=None, dashed=False, corner=6, weight="normal") -> Shape:
        """A rounded box centred on (x, y), filled in the colours of `kind`, with `text` in it."""
        fill, edge = COLOURS[kind]
        self.ax.add_patch(FancyBboxPatch((x - w / 2, y - h / 2), w, h, boxstyle=f"round,pad=0,rounding_size={corner}",
                                         facecolor=fill, edgecolor=edge, linewidth=1.3,
                                         linestyle=(0, (4, 2)) if dashed else "solid", zorder=2))
        self.text(x, y, text, color=INK, size=size, weight=weight)
        return Shape(x, y, w, h)

    def cell(self, x, y, w, h, text="", kind="neutral", size=None, hatch=None, edge=None, linewidth=1.0) -> Shape:
        """A square-cornered cell of a vector or a table."""
        fill, default_edge = COLOURS[kind]
        self.ax.add_patch(Rectangle((x - w / 2, y - h / 2), w, h, facecolor=fill, edgecolor=edge or default_edge,
                                    linewidth=linewidth, hatch=hatch, zorder=2))
        self.text(x, y, text, color=INK, size=size)
        return Shape(x, y, w, h)

    def circle(self, x, y, r, text="", kind="neutral", size=None) -> Shape:
        """A circle, for elementwise operations (+, ⊙) and for the nodes of graphs."""
        fill, edge = COLOURS[kind]
        self.ax.add_patch(Circle((x, y), r, facecolor=fill, edgecolor=edge, linewidth=1.3, zorder=2))
        self.text(x, y, text, color=INK, size=size)
        return Shape(x, y, 2 * r, 2 * r)

    def arrow(self, start, end, color=MUTED, width=1.3, bend=0.0, dashed=False, head=True, zorder=1):
        """A straight (or, with `bend`, curved) arrow from `start` to `end`."""
        self.ax.add_patch(FancyArrowPatch(start, end, arrowstyle="-|>" if head else "-", mutation_scale=10,
                                          shrinkA=0, shrinkB=0, color=color, linewidth=width,
                                          linestyle=(0, (4, 3)) if dashed else "solid",
                                          connectionstyle=f"arc3,rad={bend}", zorder=zorder))

    def path(self, points, color=MUTED, width=1.3, dashed=False, head=True, zorder=1):
        """A polyline through `points` with an arrowhead at its end: for wires that turn corners."""
        xs, ys = zip(*points[:-1])
        self.ax.plot(xs, ys, color=color, linewidth=width, linestyle=(0, (4, 3)) if dashed else "solid",
                     solid_capstyle="butt", zorder=zorder)
        self.arrow(points[-2], points[-1], color=color, width=width, dashed=dashed, head=head, zorder=zorder)

    def text(self, x, y, text, color=MUTED, size=None, ha="center", va="center", weight="normal", style="normal",
             rotation=0):
        """A label: on the page itself in mid grey (readable on light and dark backgrounds), or in a box in ink."""
        if text:
            self.ax.text(x, y, text, ha=ha, va=va, color=color, fontsize=size or SIZE, weight=weight, style=style,
                         rotation=rotation, zorder=4, **FONT)

    def outline(self, x0, y0, x1, y1, color=HIGHLIGHT, width=2.2):
        """An unfilled rectangle around (x0, y0)-(x1, y1), to single out a region."""
        self.ax.add_patch(Rectangle((x0, y0), x1 - x0, y1 - y0, fill=False, edgecolor=color, linewidth=width,
                                    zorder=3))

    def dot(self, x, y, color=MUTED, size=2.5):
        """A small filled dot (the tip of a hand, a point of a path)."""
        self.ax.plot(x, y, marker="o", markersize=size, color=color, zorder=3)

    def brace(self, x0, x1, y, depth=8, color=MUTED, up=False):
        """A square bracket under (or, with `up`, over) the span x0..x1, to group what it covers."""
        tip = y - depth if up else y + depth
        self.ax.plot([x0, x0, x1, x1], [y, tip, tip, y], color=color, linewidth=1.2, zorder=1)


def render(canvas: Canvas, title: str) -> tuple[bytes, bytes]:
    """The canvas as (SVG, PNG) bytes; both are the same on every run."""
    with matplotlib.rc_context(SAVING):
        svg, png = io.BytesIO(), io.BytesIO()
        canvas.figure.savefig(svg, format="svg", transparent=True,
                              metadata={"Title": title, "Creator": "book/diagrams/make_diagrams.py", "Date": None})
        canvas.figure.savefig(png, format="png", transparent=True, dpi=160,
                              metadata={"Title": title, "Software": "book/diagrams/make_diagrams.py"})
    return svg.getvalue().decode().replace(*FALLBACK).encode(), png.getvalue()
