"""Diagrams of chapters 11-12: the encoder-decoder with additive attention, multi-head attention, the Transformer."""
from draw import ACCENT, COLOURS, HIGHLIGHT, MUTED, Canvas

STATE = COLOURS["state"][1]


def encoder_decoder_attention() -> Canvas:
    """Chapter 11: the demo's model at output step 7 of 2025.9.9 -> 2025-09-09, attending with Eqs. (6)-(7)."""
    c = Canvas(760, 460)
    source = list("2025.9.9")
    weights = [0.01, 0.01, 0.01, 0.02, 0.04, 0.84, 0.04, 0.03]  # drawn for illustration: step 7 writes the 9 of 09
    xs = [40 + 48 * j for j in range(len(source))]
    keys_y = 370
    keys = []
    for j, (char, x) in enumerate(zip(source, xs), start=1):
        char_box = c.box(x, 435, 34, 28, char, "input")
        keys.append(c.box(x, keys_y, 42, 30, rf"$a^{{\langle {j} \rangle}}$", "state", size=9.5))
        c.arrow(char_box.top, keys[-1].bottom)
    c.outline(xs[0] - 27, keys_y - 21, xs[-1] + 27, keys_y + 21, color=STATE, width=1.2)
    c.text(xs[-1] + 34, keys_y, "BiLSTM\nencoder:\nthe keys", ha="left", size=9)

    # The context: the keys averaged with the weights alpha<7, j> (line widths).
    context = c.circle(300, 200, 17, r"$\Sigma$", "tanh", size=11)
    for key, weight in zip(keys, weights):
        c.arrow(key.top, (context.x, context.bottom[1]), color=HIGHLIGHT, width=0.4 + 5 * weight, head=False)
        leans_right = key.x <= context.x  # put the label on the side away from its line
        c.text(key.x - 3 if leans_right else key.x + 3, key.top[1] - 15, f"{weight:.2f}", color=HIGHLIGHT, size=8,
               ha="right" if leans_right else "left")
    c.text(190, 290, r"$\alpha^{\langle 7, j \rangle}$", color=HIGHLIGHT, size=10.5)
    c.text(190, 175, r"$c^{\langle 7 \rangle} = \Sigma_j\, \alpha^{\langle 7, j \rangle} a^{\langle j \rangle}$ (6)",
           size=9.5)

    # The decoder: an LSTM over the gold previous characters (teacher forcing).
    steps = {5: ("5", "-"), 6: ("-", "0"), 7: ("0", "9")}
    previous = None
    for t, (read, wrote) in steps.items():
        x = 470 + 95 * (t - 5)
        state = c.box(x, 160, 54, 32, rf"$s^{{\langle {t} \rangle}}$", "state", size=10)
        given = c.box(x, 225, 38, 28, read, "input")
        c.arrow(given.top, state.bottom)
        if previous:
            c.arrow(previous.right, state.left, color=STATE, width=1.8)
        else:
            c.arrow((x - 60, 160), state.left, color=STATE, width=1.8, dashed=True)
        out = c.box(x, 36, 38, 28, wrote, "output", weight="bold" if t == 7 else "normal")
        if t < 7:
            c.arrow(state.top, out.bottom, dashed=True)
        previous = state
    c.text(565, 255, r"inputs $y_{t-1}$: the gold characters (teacher forcing)", size=9)
    c.text(675, 36, r"$y_7$", ha="left", size=9.5)

    # Step 7: query and keys -> scores -> softmax -> weights; then [state; context] -> the next character.
    scores = c.box(560, 305, 230, 32, r"$e_j = v^\top \tanh(W_q\, q + W_k\, a^{\langle j \rangle})$ (7)", "note",
                   size=9.5)
    c.path([state.right, (735, 160), (735, scores.y), scores.right], color=ACCENT)
    c.text(728, 276, r"query $q = s^{\langle 7 \rangle}$", color=ACCENT, ha="right", size=9)
    c.arrow((xs[-1] + 27, keys_y - 10), (scores.left[0] + 20, scores.bottom[1]), color=ACCENT)
    c.arrow(scores.left, (236, 268), color=ACCENT)
    c.text(380, 278, "softmax over j", color=ACCENT, size=9)
    combine = c.box(660, 98, 92, 28, r"$[s^{\langle 7 \rangle}; c^{\langle 7 \rangle}]$", "tanh", size=9.5)
    c.arrow(state.top, combine.bottom, color=STATE)
    c.path([context.top, (context.x, 98), combine.left])
    c.arrow(combine.top, (660, 50))
    c.text(500, 400, "weights drawn for illustration: to write", size=9, ha="left")
    c.text(500, 416, "the month's 9 (output step 7), the model", size=9, ha="left")
    c.text(500, 432, "looks at the first 9 of the source", size=9, ha="left")
    return c


def multi_head_attention() -> Canvas:
    """Chapter 11: scaled dot-product attention in H = 2 heads (Eqs. 8-9), and the causal mask of one head."""
    c = Canvas(760, 430)
    head_kinds, head_colours = ("input", "state"), (ACCENT, STATE)
    x = c.box(250, 405, 120, 30, r"$X\ [B, L, D]$", "input")
    blocks = {}
    for name, px in (("Q", 110), ("K", 250), ("V", 390)):
        c.path([x.top, (250, 365), (px, 365), (px, 335)])
        for head in range(2):
            blocks[name, head] = c.cell(px - 26 + 52 * head, 318, 52, 32, rf"${name}_{head + 1}$", head_kinds[head],
                                        size=9.5)
        c.text(px, 292, rf"$X W_{name.lower()}^\top$", size=9)
    c.text(455, 310, "each projection is cut into", ha="left", size=9)
    c.text(455, 326, "H = 2 heads of D/H columns", ha="left", size=9)

    heads = []
    for head in range(2):
        hx = 150 + 200 * head
        box = c.box(hx, 212, 178, 44, rf"softmax$\left(\frac{{Q_{head + 1} K_{head + 1}^\top}}{{\sqrt{{D/H}}}}\right)"
                    rf" V_{head + 1}$", "tanh", size=9.5)
        for offset, name in zip((-50, 0, 50), "QKV"):
            c.arrow(blocks[name, head].top, (hx + offset, 234), color=head_colours[head], width=1.1)
        heads.append(box)
    c.text(250, 172, "scaled dot-product attention (8) in every head", size=9)
    concat = [c.cell(200 + 100 * head, 132, 100, 28, rf"head$_{head + 1}$", head_kinds[head], size=9.5)
              for head in range(2)]
    for head, box in enumerate(heads):
        c.arrow(box.top, concat[head].bottom, color=head_colours[head])
    c.text(250, 108, r"concatenate, then $\times\, W_o^\top$", size=9)
    out = c.box(250, 74, 170, 30, r"$\mathrm{MHA}(X)\ [B, L, D]$ (9)", "output", size=9.5)
    c.arrow((250, 118), out.bottom)
    norm = c.box(250, 28, 280, 26, r"add & norm: $\mathrm{LayerNorm}(X + \mathrm{MHA}(X))$ (11)", "note", size=9)
    c.arrow(out.top, norm.bottom)
    c.path([x.left, (40, 405), (40, 28), norm.left], dashed=True, color=HIGHLIGHT)
    c.text(48, 215, "residual", color=HIGHLIGHT, ha="left", rotation=90, size=9)

    # The scores of one head with causal=True: -inf above the diagonal, weight 0 after the softmax.
    size, left, top, cell = 5, 565, 96, 30
    for i in range(size):
        for j in range(size):
            hidden = j > i
            c.cell(left + cell * j, top + cell * i, cell, cell, r"$-\infty$" if hidden else "",
                   "padding" if hidden else "gate", size=8)
        c.text(left - 24, top + cell * i, rf"$q_{i + 1}$", size=9)
        c.text(left + cell * i, top - 24, rf"$k_{i + 1}$", size=9)
    middle = left + 2 * cell
    c.text(middle, 24, "inside one head, causal=True", size=9)
    c.text(middle, 250, r"scores $q_i \cdot k_j / \sqrt{d_k}$: query $i$ sees", size=9)
    c.text(middle, 266, r"keys $j \leq i$ only, so the future gets", size=9)
    c.text(middle, 282, "weight 0; padded keys get -∞ too", size=9)
    c.arrow((heads[1].right[0], 212), (left - 40, 180), color=MUTED, dashed=True)
    return c


def transformer_block() -> Canvas:
    """Chapter 12: a post-norm encoder block and decoder block, with the names of PyTorch's parameters."""
    c = Canvas(760, 590)
    width = 250

    def column(x, layers, side):
        """Boxes from the bottom up, joined by arrows; a residual path around each sub-layer into its add & norm."""
        boxes = [c.box(x, y, width, 44 if "\n" in text else 32, text, kind, size=9.5) for y, text, kind in layers]
        for lower, upper in zip(boxes, boxes[1:]):
            c.arrow(lower.top, upper.bottom)
        for n, (_, text, _) in enumerate(layers):
            if text.startswith("add & norm"):
                start = (boxes[n - 2].top[1] + boxes[n - 1].bottom[1]) / 2  # the sub-layer's input
                outside = x + side * (width / 2 + 20)
                c.path([(x, start), (outside, start), (outside, boxes[n].y), (x + side * width / 2, boxes[n].y)],
                       color=HIGHLIGHT, dashed=True)
        return boxes

    ffn = "position-wise FFN (linear1, linear2)\n" + r"ReLU$(x W_1^\top + b_1) W_2^\top + b_2$"
    encoder = column(190, [
        (540, r"$\sqrt{D}\,\mathbf{E}[t_i] + \mathrm{PE}(i)$" + "\nof the input tokens (PE: ch. 08)", "input"),
        (470, "self-attention, padded keys masked\n(self_attn)", "tanh"),
        (405, "add & norm (norm1)", "note"),
        (335, ffn, "gate"),
        (265, "add & norm (norm2)", "note"),
    ], side=-1)
    decoder = column(560, [
        (540, r"$\sqrt{D}\,\mathbf{E}[t_i] + \mathrm{PE}(i)$" + "\nof the output so far, shifted by one", "input"),
        (475, "causal self-attention (self_attn)", "tanh"),
        (415, "add & norm (norm1)", "note"),
        (345, "cross-attention over the memory\n(multihead_attn)", "tanh"),
        (280, "add & norm (norm2)", "note"),
        (210, ffn, "gate"),
        (140, "add & norm (norm3)", "note"),
        (75, "linear, softmax: the next token", "output"),
    ], side=1)
    c.path([encoder[-1].top, (190, 200), (375, 200), (375, decoder[3].y), decoder[3].left], color=ACCENT, width=1.8)
    c.text(282, 188, "memory: keys and values", color=ACCENT, size=9)
    c.text(182, 228, "encoder output", ha="right", size=9)
    c.text(190, 140, "encoder block (post-norm),", size=9.5, weight="bold")
    c.text(190, 158, "N of them, one after the other", size=9)
    c.text(560, 24, "decoder block (N of them)", size=9.5, weight="bold")
    c.text(190, 70, "dashed: residual paths; every sub-layer", color=HIGHLIGHT, size=9)
    c.text(190, 86, r"ends in LayerNorm$(x + \mathrm{Sublayer}(x))$", color=HIGHLIGHT, size=9)
    return c
