"""Diagrams of chapters 04-06: the unrolled Elman network, the LSTM and GRU cells, BiRNNs and deep stacks."""
from draw import COLOURS, HIGHLIGHT, MUTED, Canvas

STATE = COLOURS["state"][1]  # wires that carry a recurrent state


def unrolled_rnn() -> Canvas:
    """Chapter 04: rnn_encode over one padded row: one shared step per real token, the state carried over padding."""
    c = Canvas(760, 350)
    tokens = ["cats", "are", "cute", "[PAD]", "[PAD]"]
    c.text(380, 14, r"$\mathbf{u}_i = \tanh(\mathbf{R}\,\mathbf{u}_{i-1} + \mathbf{W}\mathbf{e}_i + \mathbf{b})$"
           r" (Aziz Eq. F.11): the same $\mathbf{R}$, $\mathbf{W}$, $\mathbf{b}$ at every position")
    previous = c.box(50, 180, 50, 34, r"$\mathbf{u}_0$", "state")
    for i, token in enumerate(tokens, start=1):
        x, real = 60 + 110 * i, token != "[PAD]"
        c.text(x, 336, token, color=MUTED)
        inputs = c.box(x, 296, 60, 32, rf"$\mathbf{{e}}_{i}$", "input" if real else "padding", dashed=not real)
        if real:
            step = c.box(x, 180, 76, 40, "rnnstep", "tanh")
            c.arrow(inputs.top, step.bottom)
            c.arrow(previous.right, step.left, color=STATE, width=1.8)
            out = c.box(x, 76, 54, 32, rf"$\mathbf{{u}}_{i}$", "state")
            c.arrow(step.top, out.bottom, color=STATE)
            previous = step
        else:
            c.text(x, 248, "mask False:\nstate kept", size=8.5)
            c.box(x, 76, 54, 32, r"$\mathbf{0}$", "padding", dashed=True)
    last = c.box(715, 180, 70, 40, r"$\mathbf{u}_3$", "state")
    c.arrow(previous.right, last.left, color=STATE, width=1.8)
    c.text(555, 165, "state carried over unchanged", size=8.5)
    c.text(715, 212, "last", size=9)
    c.text(715, 230, "(acceptor)", size=9)
    c.text(380, 44, "states (transducer: one output per position; 0 at padding)", size=9.5)
    return c


def _block_bar(c: Canvas, y: float, labels, xs, width) -> None:
    """A row of equal blocks: the gate blocks of one stacked product, side by side."""
    for label, x in zip(labels, xs):
        c.cell(x, y, width, 26, label, "neutral", size=9.5)


def lstm_cell() -> Canvas:
    """Chapter 05: one LSTM step gate by gate, fed by PyTorch's stacked pre-activations in the order i, f, g, o.

    The draft cell is the chapter's (and Xiao's) c-hat; PyTorch's name for its block, g, stays on the block.
    """
    c = Canvas(760, 400)
    i_x, f_x, g_x, o_x = 330, 410, 490, 570
    top, gates_y, bar_y = 70, 240, 310
    _block_bar(c, bar_y, [r"$\mathbf{i}$", r"$\mathbf{f}$", r"$\mathbf{g}$", r"$\mathbf{o}$"], [i_x, f_x, g_x, o_x], 80)
    c.text(450, 342, r"$\mathbf{x}_t\mathbf{W}_{ih}^\top + \mathbf{b}_{ih} + \mathbf{h}_{t-1}\mathbf{W}_{hh}^\top"
           r" + \mathbf{b}_{hh}$: one $[B, 4H]$ product, columns $0{:}H$, $H{:}2H$, $2H{:}3H$, $3H{:}4H$", size=9)
    hidden = c.box(60, 285, 60, 28, r"$\mathbf{h}_{t-1}$", "state")
    inputs = c.box(60, 335, 60, 28, r"$\mathbf{x}_t$", "input")
    c.path([hidden.right, (200, 285), (200, bar_y), (i_x - 40, bar_y)])
    c.path([inputs.right, (200, 335), (200, bar_y)], head=False)

    nonlinear = {"i": (i_x, r"$\sigma$", "gate"), "f": (f_x, r"$\sigma$", "gate"), "g": (g_x, "tanh", "tanh"),
                 "o": (o_x, r"$\sigma$", "gate")}
    units = {}
    for name, (x, label, kind) in nonlinear.items():
        units[name] = c.circle(x, gates_y, 17, label, kind, size=9.5 if label == "tanh" else 11)
        c.arrow((x, bar_y - 13), units[name].bottom)
    c.text(i_x - 22, gates_y - 16, r"$\mathbf{i}_t$", ha="right", size=9.5)
    c.text(f_x - 22, gates_y - 16, r"$\mathbf{f}_t$", ha="right", size=9.5)
    c.text(g_x + 22, gates_y - 16, r"$\hat{\mathbf{c}}_t$", ha="left", size=9.5)
    c.text(o_x + 22, gates_y - 16, r"$\mathbf{o}_t$", ha="left", size=9.5)

    # The cell: keep f_t of the old memory, write i_t of the draft (PyTorch's block g).
    forget = c.circle(f_x, top, 14, r"$\odot$", size=12)
    write = c.circle(g_x, 150, 14, r"$\odot$", size=12)
    add = c.circle(g_x, top, 14, "+", size=12)
    cell_in = c.box(60, top, 60, 28, r"$\mathbf{c}_{t-1}$", "state")
    cell_out = c.box(720, top, 56, 28, r"$\mathbf{c}_t$", "state")
    c.arrow(cell_in.right, forget.left, color=STATE, width=2)
    c.arrow(forget.right, add.left, color=STATE, width=2)
    c.arrow(add.right, cell_out.left, color=STATE, width=2)
    c.arrow(units["f"].top, forget.bottom)
    c.arrow(units["g"].top, write.bottom)
    c.path([units["i"].top, (i_x, 150), write.left])
    c.arrow(write.top, add.bottom)
    c.text(455, 28, r"$\mathbf{c}_t = \mathbf{f}_t \odot \mathbf{c}_{t-1} + \mathbf{i}_t \odot \hat{\mathbf{c}}_t$"
           " (F.13e)")

    # The hidden state: o_t of tanh(c_t).
    squash = c.circle(650, 150, 17, "tanh", "tanh", size=9.5)
    output = c.circle(650, gates_y, 14, r"$\odot$", size=12)
    hidden_out = c.box(720, bar_y, 56, 28, r"$\mathbf{h}_t$", "state")
    c.path([(650, top), squash.top])
    c.arrow(squash.bottom, output.top)
    c.arrow(units["o"].right, output.left)
    c.path([output.bottom, (650, bar_y), hidden_out.left], color=STATE, width=2)
    c.text(450, 375, r"$\mathbf{h}_t = \mathbf{o}_t \odot \tanh(\mathbf{c}_t)$ (F.13f), read by the next layer"
           r" and, as $\mathbf{h}_{t-1}$, by the next step", size=9)

    for row, legend in enumerate(["i: input gate (F.13a)", "f: forget gate (F.13b)",
                                  r"g: draft cell $\hat{\mathbf{c}}_t$ (F.13c)", "o: output gate (F.13d)"]):
        c.text(20, 140 + 18 * row, legend, ha="left", size=9)
    return c


def gru_cell() -> Canvas:
    """Chapter 05: one GRU step as PyTorch computes it: r scales the recurrent product, z keeps the old state."""
    c = Canvas(760, 420)
    x_r, x_z, x_n = 260, 380, 500  # blocks of x W_ih^T + b_ih
    h_r, h_z, h_n = 320, 440, 560  # blocks of h W_hh^T + b_hh, offset so that the wires below pass between them
    top, x_bar, h_bar = 70, 372, 332
    names = [r"$\mathbf{r}$", r"$\mathbf{z}$", r"$\mathbf{n}$"]
    _block_bar(c, x_bar, names, [x_r, x_z, x_n], 90)
    _block_bar(c, h_bar, names, [h_r, h_z, h_n], 90)
    c.text(615, x_bar, r"$\mathbf{x}_t\mathbf{W}_{ih}^\top + \mathbf{b}_{ih}$", ha="left", size=9.5)
    c.text(615, h_bar, r"$\mathbf{h}_{t-1}\mathbf{W}_{hh}^\top + \mathbf{b}_{hh}$", ha="left", size=9.5)
    c.text(410, 404, "two products, each cut into three [B, H] blocks in the order r, z, n", size=8.5)
    inputs = c.box(60, x_bar, 60, 28, r"$\mathbf{x}_t$", "input")
    c.arrow(inputs.right, (x_r - 45, x_bar))

    reset = c.circle(290, 235, 17, r"$\sigma$", "gate", size=11)
    update = c.circle(410, 235, 17, r"$\sigma$", "gate", size=11)
    for gate, x_block, h_block in ((reset, x_r, h_r), (update, x_z, h_z)):
        c.path([(x_block, x_bar - 13), (x_block, 268), (gate.x - 8, gate.y + 15)])
        c.path([(h_block, h_bar - 13), (h_block, 268), (gate.x + 8, gate.y + 15)])
    c.text(268, 222, r"$\mathbf{r}_t$", ha="right", size=9.5)
    c.text(388, 222, r"$\mathbf{z}_t$", ha="right", size=9.5)

    # The candidate: the reset gate multiplies the recurrent block after its product, bias included.
    scaled = c.circle(h_n, 270, 14, r"$\odot$", size=12)
    mix = c.circle(530, 205, 14, "+", size=12)
    candidate = c.circle(530, 160, 17, "tanh", "tanh", size=9.5)
    c.arrow((h_n, h_bar - 13), scaled.bottom)
    c.path([reset.right, (340, 235), (340, 270), scaled.left], color=COLOURS["gate"][1])
    c.path([(x_n, x_bar - 13), (x_n, 222), (mix.x - 10, mix.y + 10)])
    c.path([scaled.top, (h_n, 222), (mix.x + 10, mix.y + 10)])
    c.arrow(mix.top, candidate.bottom)
    c.text(578, 262, r"$\mathbf{r}_t \odot (\mathbf{h}_{t-1}\mathbf{W}_{hn}^\top + \mathbf{b}_{hn})$", ha="left",
           size=9)
    c.text(578, 280, "reset after the product", ha="left", size=9)
    c.text(552, 160, r"$\mathbf{n}_t$", ha="left", size=9.5)

    # The new state: z_t of the old one, 1 - z_t of the candidate.
    state_in = c.box(60, top, 60, 28, r"$\mathbf{h}_{t-1}$", "state")
    keep = c.circle(410, top, 14, r"$\odot$", size=12)
    write = c.circle(530, 112, 14, r"$\odot$", size=12)
    add = c.circle(530, top, 14, "+", size=12)
    state_out = c.box(720, top, 56, 28, r"$\mathbf{h}_t$", "state")
    c.arrow(state_in.right, keep.left, color=STATE, width=2)
    c.arrow(keep.right, add.left, color=STATE, width=2)
    c.arrow(add.right, state_out.left, color=STATE, width=2)
    c.arrow(update.top, keep.bottom)
    complement = c.box(470, 112, 40, 24, r"$1-$", "neutral", size=9.5)
    c.path([(410, 150), (470, 150), complement.bottom])
    c.arrow(complement.right, write.left)
    c.arrow(candidate.top, write.bottom)
    c.arrow(write.top, add.bottom)
    c.path([(120, top), (120, h_bar), (h_r - 45, h_bar)], color=STATE)
    c.text(400, 24, r"$\mathbf{h}_t = (1 - \mathbf{z}_t) \odot \mathbf{n}_t + \mathbf{z}_t \odot \mathbf{h}_{t-1}$:"
           r" $\mathbf{z}_t$ weights the old state")
    return c


def bidirectional() -> Canvas:
    """Chapter 06: Aziz's Fig. F.4 (l = 3): o_i = [u_i, v_{l-i+1}] and z = [u_l, v_l]."""
    c = Canvas(760, 410)
    length, xs = 3, [210, 400, 590]
    forward_y, backward_y, inputs_y, outputs_y = 175, 255, 345, 60
    backward_colour = COLOURS["tanh"][1]
    previous_u = c.box(60, forward_y, 50, 32, r"$\mathbf{u}_0$", "state")
    previous_v = c.box(720, backward_y, 50, 32, r"$\mathbf{v}_0$", "tanh")
    c.text(60, forward_y - 44, "left to right", size=9)
    c.text(60, forward_y - 28, r"$\theta_{\mathrm{enc}}$ (F.18a)", size=9)
    c.text(715, backward_y - 44, "right to left", size=9)
    c.text(715, backward_y - 28, r"$\theta_{\mathrm{renc}}$ (F.18b)", size=9)
    forward, backward = {}, {}
    for i, x in enumerate(xs, start=1):
        inputs = c.box(x, inputs_y, 56, 30, rf"$\mathbf{{e}}_{i}$", "input")
        forward[i] = c.box(x - 45, forward_y, 56, 32, rf"$\mathbf{{u}}_{i}$", "state")
        backward[i] = c.box(x + 45, backward_y, 56, 32, rf"$\mathbf{{v}}_{length - i + 1}$", "tanh")
        c.path([inputs.top, (x, 310), (x + 45, 310), backward[i].bottom])
        c.path([(x, 310), (x - 45, 310), forward[i].bottom])
    for i in range(1, length + 1):
        c.arrow((previous_u if i == 1 else forward[i - 1]).right, forward[i].left, color=STATE, width=1.8)
        j = length - i + 1  # the backward LSTM's i-th step reads e_{l-i+1}
        c.arrow((previous_v if i == 1 else backward[j + 1]).left, backward[j].right, color=backward_colour, width=1.8)
    for i, x in enumerate(xs, start=1):
        j = length - i + 1
        in_z = {"u": i == length, "v": j == length}  # the halves that z = [u_l, v_l] takes, outlined
        left = c.cell(x - 30, outputs_y, 60, 32, rf"$\mathbf{{u}}_{i}$", "state", edge=HIGHLIGHT if in_z["u"] else None,
                      linewidth=2.4 if in_z["u"] else 1.0)
        right = c.cell(x + 30, outputs_y, 60, 32, rf"$\mathbf{{v}}_{j}$", "tanh", edge=HIGHLIGHT if in_z["v"] else None,
                       linewidth=2.4 if in_z["v"] else 1.0)
        c.arrow(forward[i].top, left.bottom, color=STATE)
        c.arrow(backward[i].top, right.bottom, color=backward_colour)
        c.text(x, outputs_y - 30, rf"$\mathbf{{o}}_{i} = [\mathbf{{u}}_{i}, \mathbf{{v}}_{j}]$", size=9.5)
    c.text(xs[0] - 70, inputs_y, r"$\mathbf{e}_{1:l}$", ha="right", size=9.5)
    c.text(380, 396, r"$\mathbf{z} = [\mathbf{u}_l, \mathbf{v}_l]$ (outlined): $\mathbf{u}_l$ sits at the last"
           r" position, $\mathbf{v}_l$ at the first", color=HIGHLIGHT, size=9.5)
    return c


def stacked() -> Canvas:
    """Chapter 06: a stack of two recurrent layers (Eq. 4.14) with residual connections (Eq. 4.16)."""
    c = Canvas(760, 470)
    xs = [200, 380, 560]
    rows = {0: 420, 1: 250, 2: 80}  # where layer n's outputs h^(n) sit
    below = {n: {} for n in rows}
    for i, x in enumerate(xs, start=1):
        below[0][i] = c.box(x, rows[0], 64, 30, rf"$\mathbf{{x}}_{i}$", "input")
    for n in (1, 2):
        step_y, add_y = rows[n] + 100, rows[n] + 50
        previous = c.box(70, step_y, 50, 30, rf"$\mathbf{{h}}^{{({n})}}_0$", "state")
        for i, x in enumerate(xs, start=1):
            step = c.box(x, step_y, 76, 34, "RNN", "tanh")
            c.arrow(below[n - 1][i].top, step.bottom)
            c.arrow(previous.right, step.left, color=STATE, width=1.8)
            add = c.circle(x, add_y, 12, "+", size=11)
            c.arrow(step.top, add.bottom)
            c.path([below[n - 1][i].right, (x + 62, rows[n - 1]), (x + 62, add_y), add.right], color=HIGHLIGHT,
                   dashed=True)
            below[n][i] = c.box(x, rows[n], 64, 30, rf"$\mathbf{{h}}^{{({n})}}_{i}$", "state")
            c.arrow(add.top, below[n][i].bottom)
            previous = step
        c.text(690, step_y, f"layer {n}", size=9.5)
    c.text(70, rows[0], r"$\mathbf{h}^{(0)}_i = \mathbf{x}_i$", size=9.5)
    c.text(380, 18, r"$\mathbf{h}^{(n+1)}_i = \mathrm{RNN}(\mathbf{h}^{(n+1)}_{i-1}, \mathbf{h}^{(n)}_i)$ (4.14)"
           r"$\ +\ \mathbf{h}^{(n)}_i$ with residual connections (4.16)", size=9.5)
    c.text(380, 458, "dashed: the residual path, which needs layers whose output has the size of their input",
           color=HIGHLIGHT, size=9)
    return c
