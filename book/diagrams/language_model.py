"""Chapter 04's language model unrolled: softmax outputs at every step, and the chain that BPTT follows back."""
import math

from draw import COLOURS, HIGHLIGHT, MUTED, Canvas

STATE = COLOURS["state"][1]
# P(next token) over a five-word vocabulary after each prefix; the target's bar is drawn in the highlight.
VOCABULARY = ["the", "cat", "sat", "mat", "</s>"]
STEPS = [("<s>", "the", [0.55, 0.1, 0.1, 0.15, 0.1]), ("the", "cat", [0.05, 0.5, 0.1, 0.3, 0.05]),
         ("cat", "sat", [0.05, 0.05, 0.7, 0.1, 0.1]), ("sat", "</s>", [0.3, 0.05, 0.05, 0.1, 0.5])]


def _distribution(c: Canvas, x: float, base: float, probabilities, target: int) -> None:
    """A bar chart of one softmax output, bars 0..1 tall over 60 units, the target's bar outlined."""
    for k, p in enumerate(probabilities):
        bar_x, height = x - 40 + 20 * k, 60 * p
        c.cell(bar_x, base - height / 2, 14, height, "", "output", edge=HIGHLIGHT if k == target else None,
               linewidth=2.0 if k == target else 1.0)
    c.ax.plot([x - 52, x + 52], [base, base], color=MUTED, linewidth=1.0, zorder=1)


def rnn_language_model() -> Canvas:
    """The Elman language model on '<s> the cat sat': one shared step, a softmax per position, a loss per
    target, and backpropagation through time from the last loss to the first state."""
    c = Canvas(760, 500)
    c.text(380, 14, r"$\mathbf{u}_i = \mathrm{rnnstep}(\mathbf{u}_{i-1}, \mathbf{e}_i)$,  "
           r"$\mathbf{y}_{i+1} = \mathrm{softmax}(\mathbf{W}_o\mathbf{u}_i + \mathbf{b}_o)$,  "
           r"$L = \sum_i -\log y_{i+1}(w_{i+1})$")
    previous = c.box(40, 300, 50, 34, r"$\mathbf{u}_0$", "state")
    steps = []
    for i, (token, target, probabilities) in enumerate(STEPS, start=1):
        x = 28 + 160 * i
        c.text(x, 455, token, color=MUTED)
        embedding = c.box(x, 420, 56, 30, rf"$\mathbf{{e}}_{i}$", "input")
        step = c.box(x, 300, 84, 40, "rnnstep", "tanh")
        c.arrow(embedding.top, step.bottom)
        c.arrow(previous.right, step.left, color=STATE, width=1.8)
        c.text(x + 26, 262, rf"$\mathbf{{u}}_{i}$", size=10)
        softmax = c.box(x, 212, 84, 30, "softmax", "output")
        c.arrow(step.top, softmax.bottom, color=STATE)
        _distribution(c, x, 166, probabilities, VOCABULARY.index(target))
        loss = c.box(x, 70, 154, 30, rf"$L_{i + 1} = -\log P($" + target + rf"$)$ = "
                     f"{-math.log(probabilities[VOCABULARY.index(target)]):.2f}", "note", size=8.5)
        c.arrow((x, 104), loss.bottom)
        c.text(x, 116, rf"$\mathbf{{y}}_{i + 1}$: target {target}", size=9)
        steps.append(step)
        previous = step
    c.text(380, 40, "bars: P(next word) for " + ", ".join(VOCABULARY) + ", left to right; outlined: the target",
           size=9)
    # BPTT: the gradient of the last loss reaches u_1 through every later step's Jacobian J_k = du_k/du_(k-1).
    for k in range(len(steps) - 1, 0, -1):
        later, earlier = steps[k], steps[k - 1]
        c.arrow((later.x - 30, later.y + 24), (earlier.x + 30, earlier.y + 24), color=HIGHLIGHT, width=1.8,
                bend=-0.35, dashed=True)
        c.text((later.x + earlier.x) / 2, later.y + 62, rf"$\mathbf{{J}}_{k + 1}$", color=HIGHLIGHT, size=10)
    c.text(380, 488, r"backpropagation through time: $\partial L_5 / \partial \mathbf{u}_1 = "
           r"\partial L_5 / \partial \mathbf{u}_4 \; \mathbf{J}_4 \mathbf{J}_3 \mathbf{J}_2$", color=HIGHLIGHT,
           size=9.5)
    return c
