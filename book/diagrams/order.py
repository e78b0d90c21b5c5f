"""Diagrams of chapters 07-08: convolution over a sentence, and sinusoidal positions as clocks."""
import math

from draw import ACCENT, HIGHLIGHT, MUTED, Canvas


def convolution() -> Canvas:
    """Chapter 07: a width-3 filter bank over zero-padded word vectors, then max-over-time pooling (Kim 2014)."""
    c = Canvas(760, 420)
    words = ["the", "film", "is", "not", "good"]
    features, step, centre = 4, 78, 3  # d_e, the spacing of the positions, the position drawn in detail
    xs = [60 + step * i for i in range(len(words) + 2)]  # x_0 and x_{m+1} are the zero vectors
    for i, x in enumerate(xs):
        padding = i in (0, len(words) + 1)
        for d in range(features):
            c.cell(x, 262 + 20 * d, 30, 20, "0" if padding else "", "padding" if padding else "input", size=8.5,
                   edge="#a6a6a6" if padding else None)
        label = r"$\mathbf{x}_{m+1} = \mathbf{0}$" if i == len(words) + 1 else rf"$\mathbf{{x}}_{i}$"
        c.text(x, 358, r"$\mathbf{x}_0 = \mathbf{0}$" if i == 0 else label, size=9.5)
        c.text(x, 378, "padding" if padding else words[i - 1], size=9)
    c.text(18, 292, r"$d_e$", size=9.5)
    window = (xs[centre - 1] - 22, xs[centre + 1] + 22)
    c.outline(window[0], 244, window[1], 340)
    c.text(xs[centre], 404, r"window $\mathbf{a}_3$: $r = 3$ whole word vectors, $r \times d_e$ numbers",
           color=HIGHLIGHT, size=9)

    # One output vector per position: filter k gives v_i^(k), the d_h = 2 filters give h_i.
    for i in range(1, len(words) + 1):
        chosen = i == centre
        for k in range(2):
            c.cell(xs[i], 142 + 22 * k, 34, 22, "", "output", edge=HIGHLIGHT if chosen else None,
                   linewidth=2 if chosen else 1.0)
        c.text(xs[i], 120, rf"$\mathbf{{h}}_{i}$", size=9.5)
    c.arrow((xs[centre], 242), (xs[centre], 178), color=HIGHLIGHT, width=1.8)
    c.text(xs[centre] + 10, 212, r"$v^{(k)}_3 = \psi(\mathrm{Conv}(\mathbf{a}_3, \mathbf{W}^{(k)}))$",
           color=HIGHLIGHT, ha="left", size=9)
    c.text(xs[centre] + 10, 229, "(Eqs. 4.43–4.45)", color=HIGHLIGHT, ha="left", size=9)
    c.arrow((xs[1], 206), (xs[2], 206), color=MUTED, dashed=True)
    c.text(xs[1] - 24, 232, "slides along the\nsequence only", size=8.5, ha="left")
    c.text(xs[0], 153, r"$d_h = 2$", size=9.5)
    c.text(xs[1] + 2 * step, 92, "a sequence as long as the input: same-length convolution", size=9)

    # Max over time: each filter keeps its largest value anywhere in the sentence.
    c.brace(xs[1] - 20, xs[-2] + 20, 176, depth=10)
    pooled = [c.cell(660, 142 + 22 * k, 40, 22, "", "gate") for k in range(2)]
    c.path([(xs[-2] + 20, 186), (610, 186), (610, 153), (pooled[0].x - 20, 153)])
    c.text(688, 153, r"$\mathbf{H}$", ha="left", size=10)
    c.text(660, 208, r"$H_f = \max_i h_{i,f}$", size=9.5)
    c.text(660, 226, "max over time", size=9)
    softmax = c.box(660, 40, 150, 30, r"$\mathrm{Softmax}(\mathbf{H}\mathbf{U}_c + \mathbf{b}_c)$", "output", size=9.5)
    c.arrow((660, 131), softmax.bottom)
    c.text(585, 40, "(4.69)", ha="right", size=9)
    return c


def clocks() -> Canvas:
    """Chapter 08: sinusoidal positions as clock hands, the shift by mu as a rotation, and the two merges."""
    c = Canvas(760, 330)
    d, base, positions = 8, 10000.0, 8
    omegas = [base ** (-2 * k / d) for k in range(d // 2)]
    left, top, step = 170, 78, 46
    middle = left + step * (positions - 1) / 2
    c.text(middle, 14, r"$\mathrm{PE}(i, 2k) = \sin(i\,\omega_k)$ (hand's x),"
           r"  $\mathrm{PE}(i, 2k{+}1) = \cos(i\,\omega_k)$ (hand's y)", size=9.5)
    for i in range(positions):
        c.text(left + step * i, 44, rf"$i = {i}$", size=9)
    for k, omega in enumerate(omegas):
        y = top + step * k
        c.text(left - 30, y - 7, f"columns {2 * k}, {2 * k + 1}", ha="right", size=9)
        c.text(left - 30, y + 9, rf"$\omega_{k} = {omega:g}$", ha="right", size=9)
        for i in range(positions):
            _clock(c, left + step * i, y, 16, [i * omega], [HIGHLIGHT])
    c.text(middle, top + step * 4 - 10,
           r"$\omega_k = 10000^{-2k/d}$ with $d = 8$: the fast clocks tell neighbours apart,", size=9)
    c.text(middle, top + step * 4 + 6, "the slow ones only far-apart positions", size=9)

    # PE(i + mu) = PE(i) M(mu): every pair turns by mu * omega_k, whatever i is.
    x, y, radius, i, mu = 650, 88, 40, 1, 2
    _clock(c, x, y, radius, [i, i + mu], [HIGHLIGHT, ACCENT], dot=False)
    ends = [(x + 0.95 * radius * math.sin(a), y - 0.95 * radius * math.cos(a)) for a in (i + 0.15, i + mu - 0.15)]
    c.arrow(*ends, bend=-0.35, color=MUTED, width=1.1, zorder=3)
    c.text(x + 46, y + 8, r"$\mu\,\omega_0$", ha="left", size=9)
    c.text(x - 4, y - 54, rf"pair $k = 0$ of $\mathrm{{PE}}({i})$", ha="right", color=HIGHLIGHT, size=9)
    c.text(x + 4, y - 54, rf"and $\mathrm{{PE}}({i} + {mu})$", ha="left", color=ACCENT, size=9)
    c.text(x, y + 56, r"$\mathrm{PE}(i + \mu) = \mathrm{PE}(i)\,\mathbf{M}(\mu)$:", size=9)
    c.text(x, y + 72, r"pair $k$ turns by $\mu\,\omega_k$, whatever $i$", size=9)

    # Merge with the word vector (Eq. 4.46): add (Eq. 4.63) or concatenate (Eq. 4.50).
    c.text(x, 200, r"$\mathbf{xp}_i = \mathrm{Merge}(\mathbf{x}_i, \mathrm{PE}(i))$ (4.46)", size=9)
    c.text(x, 224, r"add (4.63): $\mathbf{x}_i + \mathrm{PE}(i)$, size $D$", size=9)
    for j in range(4):
        c.cell(x - 27 + 18 * j, 244, 18, 18, "", "tanh")
    c.text(x, 274, r"concat (4.50): $[\mathbf{x}_i, \mathrm{PE}(i)]$", size=9)
    for j in range(8):
        c.cell(x - 63 + 18 * j, 294, 18, 18, "", "input" if j < 4 else "gate")
    c.text(x, 316, r"size $D + D_{\mathrm{pe}}$", size=9)
    return c


def _clock(c: Canvas, x, y, radius, angles, colours, dot=True) -> None:
    """A dial with one hand per angle: the hand points at (sin a, cos a), so angle 0 is twelve o'clock."""
    c.circle(x, y, radius, "", "neutral")
    for angle, colour in zip(angles, colours):
        tip = (x + 0.82 * radius * math.sin(angle), y - 0.82 * radius * math.cos(angle))
        c.arrow((x, y), tip, color=colour, width=1.6, head=not dot, zorder=3)
        if dot:
            c.dot(*tip, color=colour)
