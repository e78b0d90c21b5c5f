"""Diagrams of chapters 09-10: CTC's graph of allowed moves, and the CRF's trellis."""
from draw import ACCENT, HIGHLIGHT, MUTED, Canvas

BLANK = "ε"


def ctc_lattice() -> Canvas:
    """Chapter 09: the extended target of "see" against 6 frames: the moves the forward algorithm sums over."""
    c = Canvas(760, 420)
    target = ["s", "e", "e"]
    extended = [BLANK]
    for label in target:
        extended += [label, BLANK]
    frames, states = 6, len(extended)

    def moves(s):
        """The states a path on state s (0-based) may move to at the next frame: stay, step, skip."""
        allowed = [s, s + 1]
        if s + 2 < states and extended[s + 2] != BLANK and extended[s + 2] != extended[s]:
            allowed.append(s + 2)
        return [n for n in allowed if n < states]

    # A node is drawn when a complete path runs through it: reachable from a start and able to reach an end.
    forward = [{0, 1}]
    for _ in range(frames - 1):
        forward.append({n for s in forward[-1] for n in moves(s)})
    backward = [{states - 2, states - 1}]
    for _ in range(frames - 1):
        backward.insert(0, {s for s in range(states) if set(moves(s)) & backward[0]})
    alive = [forward[t] & backward[t] for t in range(frames)]

    left, top, dx, dy = 150, 62, 70, 40
    where = {(t, s): (left + dx * t, top + dy * s) for t in range(frames) for s in range(states)}
    path = [1, 3, 3, 4, 5, 5]  # s e e ε e e: collapses to "see"
    for t in range(frames - 1):
        for s in alive[t]:
            for n in moves(s):
                if n in alive[t + 1]:
                    on_path = path[t] == s and path[t + 1] == n
                    (x0, y0), (x1, y1) = where[t, s], where[t + 1, n]
                    c.arrow((x0 + 11, y0 + (6 if n > s else 0)), (x1 - 12, y1 - (7 if n > s else 0)),
                            color=HIGHLIGHT if on_path else MUTED, width=2.4 if on_path else 0.9,
                            bend=-0.25 if n == s + 2 else 0.0)
    for (t, s), (x, y) in where.items():
        if s in alive[t]:
            c.circle(x, y, 11, "", "padding" if extended[s] == BLANK else "input")
        else:
            c.dot(x, y, size=3)
    for s, symbol in enumerate(extended):
        c.text(left - 40, top + dy * s, f"{s + 1}", ha="right", size=9)
        c.text(left - 26, top + dy * s, symbol, ha="left", size=10.5, weight="bold", color=MUTED)
    for t in range(frames):
        c.text(left + dx * t, top - 32, rf"$t = {t + 1}$", size=9)
    c.text(left - 50, top - 32, r"$s$, $y'_s$", size=9)

    # The skip rule, beside the lattice: allowed into a label unlike the one two states up, never between equal ones.
    x = left + dx * (frames - 1) + 56
    c.arrow((x, top + dy * 1), (x, top + dy * 3), color=MUTED, bend=0.6)
    c.text(x + 22, top + dy * 2 - 8, "skip allowed:", ha="left", size=9)
    c.text(x + 22, top + dy * 2 + 8, "s over ε to e", ha="left", size=9)
    c.arrow((x, top + dy * 3 + 6), (x, top + dy * 5), color=MUTED, bend=0.6, dashed=True)
    c.text(x - 13, top + dy * 4, "✗", color=HIGHLIGHT, size=12)
    c.text(x + 24, top + dy * 4 - 24, "no skip from e to e:", ha="left", size=9)
    c.text(x + 24, top + dy * 4 - 8, "B would merge them,", ha="left", size=9)
    c.text(x + 24, top + dy * 4 + 8, "so the blank between", ha="left", size=9)
    c.text(x + 24, top + dy * 4 + 24, "is compulsory", ha="left", size=9)
    c.text(x - 10, top + dy * 6, "moves: stay, step,\nor skip one blank", ha="left", size=9)
    c.text(380, 352, r"path  s e e ε e e  $\rightarrow$  merge repeats: s e ε e  $\rightarrow$  drop blanks: s e e",
           color=HIGHLIGHT, size=9.5)
    c.text(380, 374, r"start in state 1 or 2, end in state $2S$ or $2S+1$; nodes no complete path can use are dots",
           size=9)
    c.text(380, 398, r"$\alpha_t(s) = p_t(y'_s)\,(\alpha_{t-1}(s) + \alpha_{t-1}(s-1) + [\mathrm{skip\ allowed}]\,"
           r"\alpha_{t-1}(s-2))$", size=9.5)
    return c


def crf_trellis() -> Canvas:
    """Chapter 10: the BIO example: scores on the trellis, the path B I O, and the forward step into one node."""
    c = Canvas(760, 400)
    words, tags = ["new", "york", "is"], ["O", "B", "I"]
    emissions = [[1.0, 0.8, 0.2], [0.0, 0.3, 1.5], [2.0, 0.0, 0.5]]
    transitions = [[0.5, 0.0, -3.0], [-0.5, -1.0, 1.0], [0.0, -1.0, 0.5]]
    start, end = [0.0, 0.5, -3.0], [0.0, -0.5, 0.0]
    gold = [1, 2, 0]  # B I O
    xs, ys = [210, 390, 570], [90, 175, 260]
    start_box = c.box(60, 175, 70, 34, "start", "neutral")
    end_box = c.box(715, 175, 60, 34, "end", "neutral")
    nodes = {(i, k): (xs[i], ys[k]) for i in range(3) for k in range(3)}

    def edge(a, b, value, on_path, into_focus):
        colour = HIGHLIGHT if on_path else ACCENT if into_focus else MUTED
        c.arrow(a, b, color=colour, width=2.4 if on_path else 1.6 if into_focus else 0.8)
        if on_path or into_focus:  # the score, in a label that covers the wires beneath it
            c.box(0.6 * a[0] + 0.4 * b[0], 0.6 * a[1] + 0.4 * b[1], 36, 18, f"{value:+.1f}", "note", size=8.5, corner=3)

    for k in range(3):
        edge(start_box.right, (xs[0] - 34, ys[k]), start[k], k == gold[0], False)
        edge((xs[2] + 34, ys[k]), end_box.left, end[k], k == gold[2], False)
    for i in range(2):
        for j in range(3):
            for k in range(3):
                on_path = gold[i] == j and gold[i + 1] == k
                edge((xs[i] + 34, ys[j]), (xs[i + 1] - 34, ys[k]), transitions[j][k], on_path, (i, k) == (0, 2))
    for (i, k), (x, y) in nodes.items():
        chosen = gold[i] == k
        c.box(x, y, 66, 32, f"{tags[k]}: {emissions[i][k]:.1f}", "gate" if chosen else "input", weight="bold" if chosen
              else "normal", size=9.5)
    for i, word in enumerate(words):
        c.text(xs[i], 40, word, size=10.5, weight="bold")
        c.text(xs[i], 58, f"position {i + 1}", size=8.5)
    c.text(380, 310, r"$s(\mathrm{B\ I\ O}) = 0.5 + 0.8 + 1.0 + 1.5 + 0.0 + 2.0 + 0.0 = 5.8$:"
           r" start, emissions, transitions, end", color=HIGHLIGHT, size=9.5)
    c.text(380, 336, r"forward: $\alpha_i(k) = \mathrm{emissions}[i, k] + \log\Sigma_j \exp(\alpha_{i-1}(j)"
           r" + \mathrm{transitions}[j, k])$", color=ACCENT, size=9.5)
    c.text(380, 358, "(blue: the three edges into I at york); Viterbi keeps the max and a back-pointer instead",
           color=ACCENT, size=9)
    c.text(380, 384, r"node: tag: emissions$[i, k]$;  edges: transitions$[j, k]$, start$[k]$, end$[k]$", size=9)
    return c
