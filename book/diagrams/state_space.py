"""Chapter 14's state-space models: one SSM as a recurrence and as a convolution, the Hillis–Steele scan of a
linear recurrence as a tree, and the selective SSM inside the package's Mamba block."""
import math

import torch
from draw import HIGHLIGHT, INK, MUTED, Canvas
from seqmodels.layers.scan import linear_scan
from seqmodels.layers.state_space import ssm_kernel

# Section 5's worked example: step t is the map h -> a_t h + b_t, the pair e_t = (a_t, b_t).
A_STEPS = (9.0, 0.5, 0.5, 1.0)
B_STEPS = (1.0, 2.0, 3.0, 4.0)
# Section 3's worked example: one channel with two states, and the impulse whose response is the kernel.
A_BAR, B_BAR, C_OUT = (0.5, 0.25), (1.0, 2.0), (2.0, 1.0)
IMPULSE = (1.0, 0.0, 0.0, 0.0)


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


def impulse_response() -> tuple[list[float], list[float]]:
    """Section 3's two-state system on the impulse: (y from the recurrence, run as the package's linear_scan with
    a_t = A_bar and b_t = B_bar u_t, and the package's kernel K), which must be equal."""
    L = len(IMPULSE)
    a_bar = torch.tensor(A_BAR, dtype=torch.float64)
    b_bar = torch.tensor(B_BAR, dtype=torch.float64)
    c = torch.tensor(C_OUT, dtype=torch.float64)
    u = torch.tensor(IMPULSE, dtype=torch.float64)
    h = linear_scan(a_bar.expand(1, L, -1), b_bar * u[None, :, None])  # [1, L, N]
    kernel = ssm_kernel(a_bar[None], b_bar[None], c[None], L)[0]
    return (h[0] * c).sum(-1).tolist(), kernel.tolist()


def _kernel_entry(k: int) -> str:
    power = "" if k == 0 else r"\bar A" if k == 1 else rf"{{\bar A}}^{k}"
    return rf"$K_{k} = C {power} \bar B$"


def two_views() -> Canvas:
    """The same time-invariant SSM twice: unrolled as chapter 04's recurrence h_t = A_bar h_(t-1) + B_bar u_t,
    y_t = <C, h_t>, and as chapter 07's causal convolution y_t = sum_k K_k u_(t-k) with K_k = C A_bar^k B_bar;
    section 3's worked example fills in the numbers (the impulse's response is the kernel)."""
    y, kernel = impulse_response()
    L = len(IMPULSE)
    xs = [215 + 150 * t for t in range(L)]
    c = Canvas(760, 634)
    c.text(380, 14, "two views of one time-invariant SSM: the same outputs $y_t$, computed two ways")
    # Chapter 04's view: the recurrence, unrolled over t.
    c.text(20, 44, "chapter 04's view: a recurrence, one step after another", size=9.5, ha="left", weight="bold")
    c.text(20, 64, r"$h_t = \bar A \odot h_{t-1} + \bar B\, u_t$,   $y_t = \langle C, h_t \rangle$,   "
           r"from $h_{-1} = 0$ (section 3's example: an impulse $u$)", size=9.5, ha="left")
    rows = {"y": 104, "h": 179, "u": 254}
    previous = c.box(80, rows["h"], 56, 34, "$h_{-1}$\n= 0", "padding", size=9)
    for t, x in enumerate(xs):
        output = c.box(x, rows["y"], 104, 30, f"$y_{t}$ = {y[t]:g}", "output", size=9.5)
        state = c.box(x, rows["h"], 60, 34, f"$h_{t}$", "state")
        given = c.box(x, rows["u"], 104, 30, f"$u_{t}$ = {IMPULSE[t]:g}", "input", size=9.5)
        c.arrow(previous.right, state.left)
        c.text((previous.right[0] + state.left[0]) / 2, rows["h"] - 11, r"$\bar A\, \odot$", size=9.5)
        c.arrow(given.top, state.bottom)
        c.text(x + 8, (given.top[1] + state.bottom[1]) / 2, r"$\bar B$", size=9.5, ha="left")
        c.arrow(state.top, output.bottom)
        c.text(x + 8, (state.top[1] + output.bottom[1]) / 2, "$C$", size=9.5, ha="left")
        previous = state
    c.text(380, 292, r"the state $h_t$ holds $N$ numbers whatever $t$ is: each generated token costs the same",
           size=9)
    # Chapter 07's view: the causal convolution with the kernel.
    c.ax.plot([20, 740], [314, 314], color=MUTED, linewidth=0.8, linestyle=(0, (2, 3)))
    c.text(20, 338, "chapter 07's view: a causal convolution, all positions at once", size=9.5, ha="left",
           weight="bold")
    c.text(20, 358, r"$y_t = K_0 u_t + K_1 u_{t-1} + \cdots + K_t u_0$   with the kernel   "
           r"$K = (C\bar B,\ C\bar A\bar B,\ C{\bar A}^2\bar B, \ldots)$", size=9.5, ha="left")
    c.text(20, 404, "kernel $K$", size=9.5, ha="left")
    for k, x in enumerate(xs):
        c.box(x, 404, 124, 42, "", "neutral")
        c.text(x, 393, _kernel_entry(k), size=9, color=INK)
        c.text(x, 414, f"{kernel[k]:g}", size=9, color=INK)
    rows = {"y": 472, "u": 580}
    last = L - 1
    outputs = [c.box(x, rows["y"], 104, 30, f"$y_{t}$", "output" if t == last else "padding", size=9.5)
               for t, x in enumerate(xs)]
    inputs = [c.box(x, rows["u"], 104, 30, f"$u_{t}$", "input", size=9.5) for t, x in enumerate(xs)]
    for t, given in enumerate(inputs):
        end = (outputs[last].x - 36 + 24 * t, outputs[last].bottom[1])
        c.arrow(given.top, end, color=HIGHLIGHT, width=1.3)
        # the weight K_(last - t) beside its line, on the side away from the other lines
        dx, dy = end[0] - given.top[0], end[1] - given.top[1]
        length = math.hypot(dx, dy)
        middle = (given.top[0] + 0.35 * dx + 12 * dy / length, given.top[1] + 0.35 * dy - 12 * dx / length)
        c.text(*middle, f"$K_{last - t}$", size=9.5, color=HIGHLIGHT)
    c.text(20, rows["y"], "$y$", size=9.5, ha="left")
    c.text(20, rows["u"], "$u$", size=9.5, ha="left")
    c.text(380, 618, rf"orange: $y_{last}$ weighs each $u_{{{last}-k}}$ by $K_k$ (every $y_t$ likewise, from "
           r"$u_0 \ldots u_t$); the impulse's response above is this kernel", size=9)
    return c


def selective_ssm() -> Canvas:
    """The package's MambaBlock (seqmodels.models.mamba), bottom to top: RMSNorm, in_proj into u and z, the causal
    depthwise convolution and SiLU, then the selective SSM (Δ_t, B_t, C_t from u_t; discretise; scan; read out),
    gated by SiLU(z), out_proj and the residual."""
    c = Canvas(760, 760)
    c.text(380, 14, r"Mamba's block around the selective SSM: $\Delta_t$, $B_t$, $C_t$ are computed from the input "
           "at every step")
    main, gate, width = 290, 575, 250

    def step(y, text, kind, w=width, x=main, h=32, size=9.5):
        return c.box(x, y, w, h, text, kind, size=size)

    given = step(730, r"$x$  [B, L, D]", "input", w=150)
    norm = step(680, "RMSNorm (norm)", "note")
    project = c.box((main + gate) / 2 + 10, 628, 390, 32, r"in_proj: Linear, $D \to 2ED$, split into $u$ and $z$",
                    "neutral", size=9.5)
    conv = step(568, "causal depthwise conv1d, width 4 (conv)", "neutral", w=290)
    silu = step(524, "SiLU", "tanh", w=90)
    c.arrow(given.top, norm.bottom)
    c.arrow(norm.top, (main, project.bottom[1]))
    c.arrow((main, project.top[1]), conv.bottom)
    c.text(main + 8, (project.top[1] + conv.bottom[1]) / 2, "$u$", size=10, ha="left")
    c.arrow(conv.top, silu.bottom)
    # The selective SSM proper (seqmodels.layers.selective.selective_scan), outlined.
    c.outline(40, 236, 522, 494, color=MUTED, width=1.2)
    c.text(48, 250, "selective SSM", size=9, ha="left", weight="bold")
    trunk = 482
    c.ax.plot([main, main], [silu.top[1], trunk], color=MUTED, linewidth=1.3, zorder=1)
    c.text(main - 6, trunk - 12, "$u_t$", size=10, ha="right")
    c.text(main + 28, trunk - 12, "x_proj($u_t$) = (dt, $B_t$, $C_t$)", size=8, ha="left")
    selection = {
        "delta": c.box(140, 440, 180, 32, r"$\Delta_t$ = softplus(dt_proj(dt))", "gate", size=9),
        "B": c.box(main + 20, 440, 70, 32, "$B_t$", "gate", size=9.5),
        "C": c.box(475, 440, 56, 32, "$C_t$", "gate", size=9.5),
    }
    for box in selection.values():
        c.path([(main, trunk), (box.x, trunk), box.bottom] if box.x != main else [(main, trunk), box.bottom])
    A = c.box(90, 378, 90, 32, r"$A = -e^{A_{\log}}$", "neutral", size=9)
    discretise = c.box(300, 378, 260, 34, r"$\bar A_t = e^{\Delta_t A}$,   $\bar B_t u_t = \Delta_t B_t u_t$",
                       "state", size=9.5)
    c.arrow(A.right, discretise.left)
    c.arrow(selection["delta"].top, (selection["delta"].x + 60, discretise.bottom[1]))
    c.arrow(selection["B"].top, (selection["B"].x, discretise.bottom[1]))
    scan = c.box(300, 318, 300, 34, r"scan: $h_t = \bar A_t \odot h_{t-1} + \bar B_t u_t$  (linear_scan)",
                 "state", size=9.5)
    c.arrow(discretise.top, scan.bottom)
    readout = c.box(260, 264, 220, 32, r"$y_t = \langle C_t, h_t \rangle + D \odot u_t$", "output", size=9.5)
    c.arrow((readout.x, scan.top[1]), readout.bottom)
    c.path([selection["C"].top, (selection["C"].x, readout.y), readout.right])
    # The gate, the output projection and the residual.
    z_silu = step(440, "SiLU", "tanh", w=80, x=gate)
    c.arrow((gate, project.top[1]), z_silu.bottom)
    c.text(gate + 8, (project.top[1] + z_silu.bottom[1]) / 2, "$z$", size=10, ha="left")
    times = c.circle(main, 200, 13, r"$\odot$", "neutral")
    c.arrow((main, readout.top[1]), times.bottom)
    c.path([z_silu.top, (gate, times.y), times.right])
    out = step(148, r"out_proj: Linear, $E D \to D$", "neutral")
    c.arrow(times.top, out.bottom)
    plus = c.circle(main, 98, 13, "+", "neutral")
    c.arrow(out.top, plus.bottom)
    c.path([given.left, (20, given.y), (20, plus.y), plus.left], color=HIGHLIGHT, dashed=True)
    c.text(32, 600, "residual", size=9, ha="left", color=HIGHLIGHT, rotation=90)
    result = step(48, r"$x$ + out_proj($y \odot$ SiLU($z$))  [B, L, D]", "output", w=300)
    c.arrow(plus.top, result.bottom)
    note_x = 686
    c.box(note_x, 318, 136, 170, "", "note")
    for k, line in enumerate(["the selection:", r"a large $\Delta_t$ gives", r"$\bar A_t \approx 0$: reset,",
                              r"take in $u_t$; a tiny", r"one $\bar A_t \approx 1$, $\bar B_t \approx 0$:",
                              "the token passes;", "no kernel, a scan"]):
        c.text(note_x, 252 + 22 * k, line, color=INK, size=9)
    return c
