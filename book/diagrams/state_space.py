"""Chapter 14's state-space models: the Hillis–Steele scan of a linear recurrence as a tree."""
import math

import torch
from draw import HIGHLIGHT, INK, Canvas
from seqmodels.layers.scan import linear_scan

# Section 5's worked example: step t is the map h -> a_t h + b_t, the pair e_t = (a_t, b_t).
A_STEPS = (9.0, 0.5, 0.5, 1.0)
B_STEPS = (1.0, 2.0, 3.0, 4.0)


def _number(value: float) -> str:
    return f"{value:g}"


def prefix_pair(first: int, last: int) -> tuple[float, float]:
    """The pair e_first ∘ ... ∘ e_last: its a part multiplies the a's, its b part is h_last run from 0 at first."""
    a = torch.tensor(A_STEPS[first:last + 1], dtype=torch.float64).reshape(1, -1, 1)
    b = torch.tensor(B_STEPS[first:last + 1], dtype=torch.float64).reshape(1, -1, 1)
    return float(a.prod()), float(linear_scan(a, b)[0, -1, 0])


def _composition(first: int, last: int) -> str:
    return "$" + r" \circ ".join(f"e_{t}" for t in range(first, last + 1)) + "$"


def scan_tree() -> Canvas:
    """Hillis and Steele's scan of section 5's four steps: in round r each position composes the pair it holds
    with the one held `offset` = 2^(r-1) places before it (the identity (1, 0) before the start); after two rounds
    position t holds e_0 ∘ ... ∘ e_t, whose b part is h_t."""
    L = len(A_STEPS)
    rounds = math.ceil(math.log2(L))
    width, height, gap, top = 130, 44, 118, 112
    c = Canvas(760, top + gap * rounds + 132)
    c.text(380, 14, r"the Hillis–Steele scan of $h_t = a_t h_{t-1} + b_t$ from $h_{-1} = 0$: "
           r"step $t$ is the pair $e_t = (a_t, b_t)$")
    c.text(380, 36, r"the map $h \mapsto a_t h + b_t$; doing $e_1$, then $e_2$: $(a_1, b_1) \circ (a_2, b_2) = "
           r"(a_1 a_2,\ a_2 b_1 + b_2)$, which is associative", size=9.5)
    xs = [235 + 148 * t for t in range(L)]
    c.text(20, 70, "position $t$", size=9.5, ha="left")
    for t, x in enumerate(xs):
        c.text(x, 70, f"{t}", size=9.5)
    c.text(20, top, "start", size=9.5, ha="left")
    boxes = [c.box(x, top, width, height, f"$e_{t}$ = ({_number(A_STEPS[t])}, {_number(B_STEPS[t])})", "input",
                   size=9.5) for t, x in enumerate(xs)]
    firsts = list(range(L))  # position t holds e_first ∘ ... ∘ e_t
    offset = 1
    for r in range(1, rounds + 1):
        y = top + gap * r
        c.text(20, y - 6, f"round {r}", size=9.5, ha="left")
        c.text(20, y + 12, f"offset {offset}", size=9, ha="left")
        new_boxes, new_firsts = [], []
        for t, x in enumerate(xs):
            before = t - offset
            first = firsts[before] if before >= 0 else firsts[t]
            a, b = prefix_pair(first, t)
            kind = "input" if before < 0 else "state"
            box = c.box(x, y, width, height, "", kind, dashed=before < 0)
            c.text(x, y - 10, _composition(first, t), size=9, color=INK)
            c.text(x, y + 10, f"({_number(a)}, {_number(b)})", size=9.5, color=INK)
            c.arrow(boxes[t].bottom, box.top)
            if before >= 0:
                c.arrow((boxes[before].x + 30, boxes[before].y + height / 2), (box.x - 30, box.top[1]),
                        color=HIGHLIGHT, width=1.5)
            else:
                c.text(x + 6, box.top[1] - 10, r"$(1, 0) \circ$", size=8.5, ha="left")
            new_boxes.append(box)
            new_firsts.append(first)
        boxes, firsts = new_boxes, new_firsts
        offset *= 2
    y = top + gap * rounds + 52
    c.text(20, y, "$h_t$ = the $b$ part", size=9.5, ha="left")
    for t, x in enumerate(xs):
        c.text(x, y, f"$h_{t}$ = {_number(prefix_pair(0, t)[1])}", size=10, color=HIGHLIGHT, weight="bold")
    c.text(380, y + 30, "orange: the left operand, from the position offset places before;  grey: the right operand, "
           "the position's own pair", size=8.5)
    c.text(380, y + 47, r"dashed: no position offset places before it, so it composes with the identity $(1, 0)$ "
           "and keeps its pair", size=8.5)
    c.text(380, y + 64, r"each round is a few operations on whole tensors: $\lceil \log_2 L \rceil$ rounds "
           r"(2 for $L = 4$, 12 for $L = 4096$), $O(L \log L)$ work", size=8.5)
    return c
