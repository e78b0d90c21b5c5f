"""Diagrams of chapters 01-03: from tokens to vectors, pooling and composition, skip-gram."""
import numpy as np

from draw import ACCENT, HIGHLIGHT, MUTED, Canvas

# Aziz's Tables F.1 and F.2: the vocabulary and its 7 x 3 embedding table, drawn as chapters 01 and 02 draw it.
VOCABULARY = ["[PAD]", "[UNK]", "are", "awesome", "cats", "cute", "dogs"]
TABLE_F2 = np.random.RandomState(42).normal(size=(7, 3))


def one_hot_embedding() -> Canvas:
    """Chapter 01: token -> id -> one-hot code -> times E, which is the lookup of one row of E."""
    c = Canvas(760, 330)
    dogs = VOCABULARY.index("dogs")
    token = c.box(45, 45, 70, 30, "dogs", "input")
    token_id = c.box(135, 45, 40, 30, str(dogs), "neutral", weight="bold")
    c.arrow(token.right, token_id.left)
    c.text(92, 20, "vocabulary", size=9.5)

    # v = onehot_7(6) as a row vector, multiplied from the left: its entry j meets row j of E.
    size = 26
    for j in range(len(VOCABULARY)):
        c.cell(73 + size * j, 190, size, size, "1" if j == dogs else "0", "gate" if j == dogs else "padding")
        c.text(73 + size * j, 212, str(j), size=8)
    c.text(151, 158, r"$\mathbf{v} = \mathrm{onehot}_7(6)$: one 1, $V - 1$ zeros", size=9.5)
    c.arrow(token_id.bottom, (135, 142))
    c.text(268, 190, r"$\times$", size=14)

    rows, width = 24, 52
    top = 190 - 3 * rows
    for j, row in enumerate(TABLE_F2):
        for d, value in enumerate(row):
            c.cell(322 + width * d, top + rows * j, width, rows, f"{value:.2f}", "gate" if j == dogs else "input",
                   size=9.5)
        c.text(462, top + rows * j, f"{j}  {VOCABULARY[j]}", ha="left", size=9.5)
    c.text(374, top - 30, r"$\mathbf{E} \in \mathbb{R}^{V \times D}$, one row per symbol", size=9.5)
    c.arrow((73 + size * dogs + 13, 196), (296, top + rows * dogs), color=HIGHLIGHT, bend=0.35)
    c.text(250, 290, "the 1 picks row 6", color=HIGHLIGHT, size=9.5)

    c.text(562, 190, "=", size=14)
    for d, value in enumerate(TABLE_F2[dogs]):
        c.cell(612 + width * d, 190, width, 30, f"{value:.2f}", "gate")
    c.text(664, 224, r"$\mathbf{e} = \mathbf{v}\,\mathbf{E} = \mathbf{E}_{6,:}$")

    # The lookup reaches the same row without ever building v.
    c.path([token_id.right, (664, 45), (664, 174)], color=ACCENT, dashed=True)
    c.text(400, 31, r"lookup $\mathrm{embed}_D(t; \mathbf{E}) = \mathbf{E}_{t,:}$ (Aziz Eq. F.1): $D$ numbers copied",
           color=ACCENT, size=9.5)
    c.text(380, 310, r"product $\mathbf{v}\,\mathbf{E}$ (Xiao Eq. 4.5): $V \times D$ multiply-adds, all but $D$ of them"
           " with a zero", size=9.5)
    return c


def pooling() -> Canvas:
    """Chapter 02: sum, mean and max pooling of one padded row, each with its neutral value for padding."""
    c = Canvas(760, 290)
    tokens = ["cute", "cats", "[PAD]", "[PAD]", "[PAD]"]
    x = TABLE_F2[[VOCABULARY.index(t) for t in tokens]]
    real = np.array([t != "[PAD]" for t in tokens])
    colour = {"cute": ACCENT, "cats": HIGHLIGHT}
    for i, token in enumerate(tokens):
        left = 62 + 54 * i
        c.text(left, 76, token, color=colour.get(token, MUTED), weight="bold" if real[i] else "normal")
        for d in range(3):
            c.cell(left, 106 + 26 * d, 52, 26, f"{x[i, d]:.2f}", "input" if real[i] else "padding", size=9.5,
                   hatch=None if real[i] else "///", edge=None if real[i] else "#b3b3b3")
        c.text(left, 190, str(bool(real[i])), size=9)
    c.text(8, 132, r"$d$", ha="left")
    c.text(8, 190, "mask", ha="left", size=9)
    c.text(170, 36, r"one row of $\mathbf{x}[B, L, D]$: $L = 5$, $D = 3$")
    c.arrow((312, 132), (352, 132), width=2)

    pools = {
        "sum (F.3)": (["padding → 0"], x[real].sum(0)),
        "mean (F.4)": (["padding → 0,", r"÷ 2 real tokens, not $L = 5$"], x[real].mean(0)),
        "max (F.5)": ([r"padding → $-\infty$"], x[real].max(0)),
    }
    for k, (name, (rule, pooled)) in enumerate(pools.items()):
        left = 410 + 125 * k
        c.text(left, 36, name, weight="bold")
        for line, text in enumerate(rule):
            c.text(left, 56 + 15 * line, text, size=9)
        for d, value in enumerate(pooled):
            c.cell(left, 106 + 26 * d, 60, 26, f"{value:.2f}", "output", size=9.5)
    for d, i in enumerate(x[real].argmax(0)):
        c.text(696, 106 + 26 * d, f"← {tokens[i]}", color=colour[tokens[i]], ha="left", size=9)
    pad = TABLE_F2[0]
    c.text(380, 234, f"[PAD] holds E[0] = ({pad[0]:.2f}, {pad[1]:.2f}, {pad[2]:.2f}): left in, it would shift the sum"
           " and the mean", size=9.5)
    c.text(380, 254, "and win the max in every coordinate. The max mixes coordinates of different tokens.", size=9.5)
    return c


def feed_forward() -> Canvas:
    """Chapter 02: concatenation (Eq. F.7, F.9a) and the two-layer feed-forward network (Eq. F.8)."""
    c = Canvas(760, 300)
    inputs = [c.cell(60, 70 + 30 * i, 30, 30, "", "input" if i < 2 else "state") for i in range(4)]
    c.text(60, 38, "concatenate", size=9.5)
    c.text(22, 100, r"$\mathbf{u}_1$", color="#4a86d8")
    c.text(22, 160, r"$\mathbf{u}_2$", color="#3f9b4a")
    c.text(60, 208, r"$\mathbf{c} = [\mathbf{u}_1, \mathbf{u}_2]$", size=9.5)
    c.text(60, 226, r"$\in \mathbb{R}^{I}$, $I = 4$", size=9.5)
    hidden = [c.circle(290, 85 + 50 * h, 17, r"$a$", "tanh") for h in range(3)]
    outputs = [c.circle(520, 110 + 50 * o, 17, rf"$v_{o + 1}$", "output") for o in range(2)]
    for i in inputs:
        for h in hidden:
            c.arrow(i.right, (h.left[0] - 1, h.left[1]), head=False, width=0.8)
    for h in hidden:
        for o in outputs:
            c.arrow(h.right, (o.left[0] - 1, o.left[1]), head=False, width=0.8)
    c.text(175, 38, r"$\mathbf{W}^{[1]} \in \mathbb{R}^{H \times I}$, $\mathbf{b}^{[1]}$", size=9.5)
    c.text(405, 38, r"$\mathbf{W}^{[2]} \in \mathbb{R}^{O \times H}$, $\mathbf{b}^{[2]}$", size=9.5)
    c.text(290, 240, r"$\mathbf{h} = a(\mathbf{W}^{[1]}\mathbf{c} + \mathbf{b}^{[1]})$ (F.8a)", size=9.5)
    c.text(290, 258, r"$H = 3$ hidden units, $a$ = relu or tanh", size=9.5)
    c.text(520, 240, r"$\mathbf{v} = \mathbf{W}^{[2]}\mathbf{h} + \mathbf{b}^{[2]}$ (F.8b)", size=9.5)
    c.text(520, 258, r"$O = 2$ scores (logits)", size=9.5)
    c.box(672, 135, 130, 64, "no activation\nafter the output:\nsoftmax comes later", "note", size=9)
    c.text(380, 288, r"Without $a$, the two layers would collapse into one linear map: the nonlinearity lets"
           " features interact.", size=9.5)
    return c


def skip_gram() -> Canvas:
    """Chapter 03: the pairs of one center word in a window of 2, and the negative-sampling loss of one pair."""
    c = Canvas(760, 370)
    sentence = ["the", "king", "loves", "his", "crown"]
    center, window = 1, 2
    boxes = []
    for i, word in enumerate(sentence):
        inside = abs(i - center) <= window
        kind = "gate" if i == center else "input" if inside else "padding"
        boxes.append(c.box(90 + 130 * i, 72, 96, 32, word, kind, weight="bold" if i == center else "normal"))
        c.text(90 + 130 * i, 44, f"position {i}", size=8.5)
    c.brace(42, 90 + 130 * (center + window) + 48, 30, up=True)
    c.text(240, 12, f"window = {window}: every word at most {window} positions from the center", size=9.5)
    c.text(610, 12, "too far: not a context", size=9.5)
    contexts = [i for i in range(len(sentence)) if i != center and abs(i - center) <= window]
    for i in contexts:
        c.arrow((boxes[center].x, 88), (boxes[i].x, 88), color=HIGHLIGHT, bend=0.35 if i > center else -0.35)
    pairs = ", ".join(f"({sentence[center]}, {sentence[i]})" for i in contexts)
    c.text(300, 150, f"pairs of the center, in reading order: {pairs}", color=HIGHLIGHT, size=9.5)

    # The pair (king, loves) and K = 2 negatives drawn from the noise distribution: K + 1 logistic regressions.
    c.text(300, 186, "logistic regressions", size=9)
    c.text(505, 186, r"context vectors (rows of $\boldsymbol{\theta}$)", size=9)
    center_vector = c.box(80, 262, 140, 34, r"$\mathbf{c} = \mathbf{e}_{\mathrm{king}}$ (row of $\mathbf{E}$)", "gate",
                          size=9.5)
    rows = [("loves", r"\mathbf{o}", "1: real context"), ("madrid", r"\mathbf{n}_1", "0: noise"),
            ("of", r"\mathbf{n}_2", "0: noise")]
    for k, (word, name, target) in enumerate(rows):
        y = 215 + 47 * k
        score = rf"$\sigma(\mathbf{{c}}^\top {name})$" if k == 0 else rf"$\sigma(-\mathbf{{c}}^\top {name})$"
        logistic = c.box(300, y, 140, 32, score, "output", size=9.5)
        vector = c.box(505, y, 150, 32, rf"${name} = \boldsymbol{{\theta}}_{{\mathrm{{{word}}}}}$",
                       "input" if k == 0 else "padding", size=9.5)
        c.arrow(center_vector.right, logistic.left)
        c.arrow(vector.left, logistic.right)
        c.text(592, y, f"target {target}", ha="left", size=9)
    c.text(380, 350, r"$\ell = -\log\sigma(\mathbf{c}^\top\mathbf{o}) - \Sigma_{k=1}^{K}"
           r" \log\sigma(-\mathbf{c}^\top\mathbf{n}_k)$, the $K$ negatives drawn from"
           r" $P_n(w) \propto \mathrm{count}(w)^{3/4}$", size=9.5)
    return c
