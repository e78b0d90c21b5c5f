"""Chapter 11's beam search drawn as the tree it explores: every extension scored, N kept, the rest pruned."""
import math

from draw import HIGHLIGHT, MUTED, Canvas

# (prefix, P(last token | rest), fate, y): the extensions of a beam of N = 2 over tokens a, b, </s>, max_len 3.
# Fates as the course's beam_search decides them (step 3 of section 3): "live" stays in the beam, "finished"
# was kept and ends in </s>, "pruned" fell outside the N best extensions of its step.
TREE = [
    (("a",), 0.5, "live", 100), (("b",), 0.4, "live", 240), (("</s>",), 0.1, "pruned", 330),
    (("a", "a"), 0.3, "pruned", 50), (("a", "b"), 0.3, "pruned", 95), (("a", "</s>"), 0.4, "finished", 140),
    (("b", "a"), 0.9, "live", 205), (("b", "b"), 0.05, "pruned", 250), (("b", "</s>"), 0.05, "pruned", 295),
    (("b", "a", "a"), 0.15, "live", 160), (("b", "a", "b"), 0.05, "pruned", 205),
    (("b", "a", "</s>"), 0.8, "finished", 250),
]
KINDS = {"live": "state", "finished": "output", "pruned": "padding"}
COLUMNS = [70, 245, 440, 640]


def beam_search_tree() -> Canvas:
    """Beam search with N = 2: the three extensions of each live hypothesis, their log P, the two kept per step;
    greedy decoding's a </s> loses to b a </s>, which starts with the less probable first token."""
    c = Canvas(760, 420)
    c.text(380, 14, r"beam search, $N = 2$: extend every live hypothesis by every token, keep the $N$ best "
           r"by $\log P$")
    shapes, scores = {(): c.box(COLUMNS[0], 190, 70, 30, "<s>   0", "state")}, {(): 0.0}
    for prefix, p, fate, y in TREE:
        scores[prefix] = scores[prefix[:-1]] + math.log(p)
        best = prefix == ("b", "a", "</s>")
        shape = c.box(COLUMNS[len(prefix)], y, 128, 30, f"{' '.join(prefix)}   {scores[prefix]:.2f}", KINDS[fate],
                      size=9.5, dashed=fate == "pruned", weight="bold" if best else "normal")
        parent = shapes[prefix[:-1]]
        c.arrow(parent.right, shape.left, color=MUTED if fate == "pruned" else HIGHLIGHT if best else MUTED,
                width=1.0 if fate == "pruned" else 1.6, dashed=fate == "pruned")
        c.text(shape.x + 62, y - 21, f"p = {p}", size=7.5, ha="right")  # above the box, clear of the arrows
        shapes[prefix] = shape
    for step, x in enumerate(COLUMNS[1:], start=1):
        c.text(x, 355, f"step {step}", size=9.5)
    c.text(COLUMNS[3], 290, "cut at max_len = 3:\nb a a counts as finished", size=8.5)
    legend = [("live: stays in the beam", "state", False), ("finished: kept, ends in </s>", "output", False),
              ("pruned: not among the N best", "padding", True)]
    for k, (label, kind, dashed) in enumerate(legend):
        c.box(40 + 235 * k, 385, 22, 16, "", kind, dashed=dashed, corner=3)
        c.text(58 + 235 * k, 385, label, size=9, ha="left")
    c.text(380, 410, f"greedy decoding takes a, then </s>: log P = {scores[('a', '</s>')]:.2f}; "
           f"the beam returns b a </s> ({scores[('b', 'a', '</s>')]:.2f}) first", size=9.5)
    return c
