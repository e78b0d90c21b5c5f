"""Chapter 13's generative Transformer: BPE's merge table as it grows, the causal mask, and the key-value cache."""
from collections import Counter

from draw import HIGHLIGHT, INK, MUTED, Canvas
from seqmodels.text.bpe import bpe_train, merge_pair, word_symbols

# Sennrich et al.'s worked example, as section 1 of the chapter trains it: word -> count.
CORPUS = {"low": 5, "lower": 2, "newest": 6, "widest": 3}
TOKENS = ["The", "Prime", "Minister", "said", "that"]  # the demo's prompt, and a next token


def merge_table() -> list[tuple[tuple[str, str], int, dict[str, list[str]]]]:
    """(pair, its weighted count when merged, every word's symbols after the merge) for each merge of bpe_train."""
    words = {word: word_symbols(word) for word in CORPUS}
    rows = []
    for pair in bpe_train(CORPUS, 100):
        count = sum(CORPUS[word] * Counter(zip(symbols, symbols[1:]))[pair] for word, symbols in words.items())
        words = {word: merge_pair(symbols, pair) for word, symbols in words.items()}
        rows.append((pair, count, words))
    return rows


def _symbols(c: Canvas, x: float, y: float, symbols: list[str], new: str | None) -> None:
    """A word's symbols as cells side by side from x; the symbol just made by a merge is outlined."""
    for symbol in symbols:
        w = 6.3 * len(symbol) + 9
        made = symbol == new
        c.cell(x + w / 2, y, w, 20, symbol, "state" if made else "input", size=8,
               edge=HIGHLIGHT if made else None, linewidth=2.0 if made else 1.0)
        x += w + 2


def bpe_merges() -> Canvas:
    """The thirteen merges of bpe_train on low x5, lower x2, newest x6, widest x3, row by row, with each word's
    symbols after the merge; the first four rows are bpe_train(counts, 4)."""
    rows = merge_table()
    c = Canvas(760, 146 + 27 * len(rows))
    c.text(380, 14, "byte-pair encoding: merge the most frequent adjacent pair, again and again")
    c.text(380, 34, "(pairs counted over the words, each weighted by its count; ties go to the smallest pair)", size=9)
    columns = {word: 220 + 130 * k for k, word in enumerate(CORPUS)}
    c.text(20, 62, "merge: pair (count)", size=9, ha="left")
    for word, x in columns.items():
        c.text(x, 62, f"{word} ×{CORPUS[word]}", size=9.5, ha="left", weight="bold")
    y = 88
    c.text(20, y, "start: characters, </w>", size=9, ha="left")
    for word, x in columns.items():
        _symbols(c, x, y, word_symbols(word), None)
    for step, ((a, b), count, words) in enumerate(rows, start=1):
        y += 27 + (16 if step == 5 else 0)  # room under merge 4 for where section 1's example stops
        c.text(20, y, f"{step:>2}.  {a} + {b}  ({count})", size=9, ha="left", color=INK if step <= 4 else MUTED)
        for word, x in columns.items():
            _symbols(c, x, y, words[word], a + b if a + b in words[word] else None)
        if step == 4:
            c.ax.plot([14, 746], [y + 15, y + 15], color=HIGHLIGHT, linewidth=1.2, linestyle=(0, (4, 3)))
            c.text(746, y + 25, "bpe_train(counts, 4) stops here", size=8, ha="right", color=HIGHLIGHT)
    c.text(380, y + 34, "green, outlined: the symbol the row's merge made; the vocabulary is the alphabet "
           "plus one symbol per merge", size=9)
    return c


def causal_mask() -> Canvas:
    """Causal self-attention's scores for five tokens: query i may look at keys j <= i, the rest are set to
    minus infinity before the softmax, so one pass predicts every next token from its prefix alone."""
    c = Canvas(760, 400)
    size, left, top = 52, 170, 110
    n = len(TOKENS)
    c.text(380, 14, r"causal self-attention: query $i$ attends to keys $j \leq i$; "
           r"$s_{ij} = \mathbf{q}_i \cdot \mathbf{k}_j / \sqrt{d}$")
    c.text(left + (n - 1) * size / 2, 46, r"key $j$ (the tokens it may look at)", size=9.5)
    c.text(60, top + (n - 1) * size / 2, r"query $i$", size=9.5, rotation=90)
    for j, token in enumerate(TOKENS):
        c.text(left + j * size, top - 40, token, size=9, rotation=30)
    for i, token in enumerate(TOKENS):
        c.text(left - 34, top + i * size, f"{i + 1}  {token}", size=9, ha="right")
        for j in range(n):
            if j <= i:
                c.cell(left + j * size, top + i * size, size, size, rf"$s_{{{i + 1}{j + 1}}}$", "input", size=10)
            else:
                c.cell(left + j * size, top + i * size, size, size, r"$-\infty$", "padding", size=9.5)
    note_x = 645
    c.box(note_x, 150, 220, 100, "", "note")
    for k, line in enumerate(["after each row's softmax", r"the grey cells weigh $e^{-\infty} = 0$:",
                              "no position reads a later one", "(the upper triangle is masked)"]):
        c.text(note_x, 120 + 20 * k, line, color=INK, size=9.5)
    for k, line in enumerate(["training: row i predicts", "token i + 1, so one pass over", "L tokens gives L predictions,",
                              "each from its own prefix"]):
        c.text(note_x, 240 + 20 * k, line, size=9.5)
    for i in range(n - 1):
        c.text(left + (n - 0.5) * size + 12, top + i * size, f"→ {TOKENS[i + 1]}", size=9, ha="left",
               color=HIGHLIGHT)
    c.text(left + (n - 1) * size / 2, top + n * size + 6, "the arrows: the next token that row is trained to "
           "predict", size=9, color=HIGHLIGHT)
    return c


def kv_cache() -> Canvas:
    """Generation step t = 4 of one attention layer with a key-value cache: the keys and values of positions
    1..3 come from the cache, only token 4's q, k, v are computed, and q_4 is scored against all four keys."""
    c = Canvas(760, 470)
    t = 4
    c.text(380, 14, rf"generating with a key-value cache, step $t = {t}$ of one attention layer: "
           r"$\mathrm{out}_t = \mathrm{MHA}(\mathbf{q}_t, K_{1..t}, V_{1..t})$")
    xs = [110 + 120 * i for i in range(t)]
    rows = {"q": 130, "k": 200, "v": 250, "x": 340}
    for label, y in [("queries", rows["q"]), ("keys", rows["k"]), ("values", rows["v"]), ("inputs", rows["x"])]:
        c.text(28, y, label, size=9, ha="left")
    c.outline(xs[0] - 42, rows["k"] - 26, xs[t - 2] + 42, rows["v"] + 26, color=MUTED, width=1.4)
    c.text((xs[0] + xs[t - 2]) / 2, rows["v"] + 40, r"the cache $(K, V)$, each $[B, H, t-1, D/H]$: "
           "read, never recomputed", size=9)
    new = []
    for i, x in enumerate(xs, start=1):
        current = i == t
        token = c.box(x, 400, 84, 26, TOKENS[i - 1], "input", size=9.5)
        inputs = c.box(x, rows["x"], 56, 28, rf"$\mathbf{{x}}_{i}$", "input")
        c.arrow(token.top, inputs.bottom)
        if current:
            query = c.box(x, rows["q"], 56, 28, rf"$\mathbf{{q}}_{i}$", "output")
            key = c.box(x, rows["k"], 56, 28, rf"$\mathbf{{k}}_{i}$", "output")
            value = c.box(x, rows["v"], 56, 28, rf"$\mathbf{{v}}_{i}$", "output")
            c.path([inputs.top, (x, rows["v"] + 24), value.bottom], color=HIGHLIGHT, width=1.6)
            c.path([(x + 40, rows["x"] - 14), (x + 40, rows["k"]), key.right], color=HIGHLIGHT, width=1.6)
            c.path([(x + 48, rows["x"] - 14), (x + 48, rows["q"]), query.right], color=HIGHLIGHT, width=1.6)
            c.ax.plot([x + 28, x + 48], [rows["x"] - 14, rows["x"] - 14], color=HIGHLIGHT, linewidth=1.6, zorder=1)
            new = [query, key, value]
        else:
            c.box(x, rows["q"], 56, 28, rf"$\mathbf{{q}}_{i}$", "padding", dashed=True)
            c.box(x, rows["k"], 56, 28, rf"$\mathbf{{k}}_{i}$", "state")
            c.box(x, rows["v"], 56, 28, rf"$\mathbf{{v}}_{i}$", "state")
    query = new[0]
    c.text(query.x + 30, 102, r"new: $\mathbf{q}_t, \mathbf{k}_t, \mathbf{v}_t$ from $\mathbf{x}_t$ only", size=9,
           color=HIGHLIGHT, ha="right")
    for x in xs[:-1]:
        c.arrow(query.left, (x + 28, rows["k"] - 14), color=HIGHLIGHT, width=1.0, dashed=True)
    c.arrow(query.bottom, new[1].top, color=HIGHLIGHT, width=1.0, dashed=True)
    c.text((xs[0] + xs[-1]) / 2, 82, r"scores $\mathbf{q}_t \cdot \mathbf{k}_j / \sqrt{d}$ for every $j \leq t$",
           size=9, color=HIGHLIGHT)
    note_x = 640
    c.box(note_x, 175, 210, 150, "", "note")
    for k, line in enumerate(["per step and layer:", r"computed: 3 projections of $\mathbf{x}_t$,",
                              r"$t$ scores, $\mathrm{out}_t$; appended to", r"the cache: $\mathbf{k}_t, \mathbf{v}_t$",
                              "", r"without the cache: $\mathbf{q}, \mathbf{k}, \mathbf{v}$ of all $t$",
                              r"positions, and $t^2$ scores, again"]):
        c.text(note_x, 115 + 20 * k, line, color=INK, size=9)
    c.text(note_x, 290, "the earlier rows never change:", size=9)
    c.text(note_x, 308, "a causal layer lets no position", size=9)
    c.text(note_x, 326, "see a later one", size=9)
    c.text(380, 448, "orange: computed at this step;  green: read from the cache;  dashed grey: the earlier queries, "
           "used once and dropped", size=9)
    return c
