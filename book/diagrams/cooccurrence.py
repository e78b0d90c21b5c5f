"""Chapter 03's GloVe input: the co-occurrence matrix of a two-sentence corpus, and which cells the loss reads."""
from draw import HIGHLIGHT, INK, Canvas
from seqmodels.embeddings.word2vec import skipgram_pairs

SENTENCES = [["the", "king", "loves", "his", "crown"], ["the", "queen", "loves", "her", "crown"]]
WORDS = ["the", "king", "queen", "loves", "his", "her", "crown"]
WINDOW = 2
CHOSEN = ("loves", "crown")  # the cell whose term of the loss is written out


def counts() -> list[list[int]]:
    """X[i][j]: how often WORDS[j] is within WINDOW positions of WORDS[i] (skip-gram's pairs, counted)."""
    index = {word: i for i, word in enumerate(WORDS)}
    X = [[0] * len(WORDS) for _ in WORDS]
    for sentence in SENTENCES:
        for center, context in skipgram_pairs([index[w] for w in sentence], WINDOW):
            X[center][context] += 1
    return X


def glove_cooccurrence() -> Canvas:
    """The 7 x 7 counts X of 'the king loves his crown' and 'the queen loves her crown' (window 2): GloVe fits
    log X_ij on the observed cells only, weighted by f(X_ij)."""
    c = Canvas(760, 420)
    X = counts()
    size, left, top = 40, 150, 112
    c.text(380, 14, "the king loves his crown  /  the queen loves her crown   (window 2 on each side)")
    c.text(left + 3 * size, 40, r"context word $j$ (a row of W_ctx: $\tilde{\mathbf{w}}_j$, $\tilde{b}_j$)", size=9.5)
    c.text(32, top + 3 * size, r"center word $i$ (a row of W: $\mathbf{w}_i$, $b_i$)", size=9.5, rotation=90)
    for j, word in enumerate(WORDS):
        c.text(left + j * size, top - 30, word, size=9, rotation=35)
    for i, row_word in enumerate(WORDS):
        c.text(left - 28, top + i * size, row_word, size=9, ha="right")
        for j, count in enumerate(X[i]):
            chosen = (row_word, WORDS[j]) == CHOSEN
            c.cell(left + j * size, top + i * size, size, size, str(count), "input" if count else "padding",
                   size=10, edge=HIGHLIGHT if chosen else None, linewidth=2.4 if chosen else 1.0)
    i, j = WORDS.index(CHOSEN[0]), WORDS.index(CHOSEN[1])
    x_ij = X[i][j]
    weight = min(1.0, (x_ij / 100) ** 0.75)
    note_x = 590
    c.box(note_x, 130, 300, 92, "", "note")
    c.text(note_x, 104, rf"$X_{{\mathrm{{loves,\,crown}}}} = {x_ij}$: one term of $J$", color=INK, size=10)
    c.text(note_x, 132, rf"$f({x_ij}) = ({x_ij}/100)^{{3/4}} = {weight:.4f}$", color=INK, size=10)
    c.text(note_x, 160, rf"$\times\,(\mathbf{{w}}_i^\top\tilde{{\mathbf{{w}}}}_j + b_i + \tilde{{b}}_j"
           rf" - \log {x_ij})^2$", color=INK, size=10)
    c.box(note_x, 250, 300, 62, "", "padding", dashed=True)
    c.text(note_x, 238, r"grey cells: $X_{ij} = 0$, no term ($\log 0$", color=INK, size=9.5)
    c.text(note_x, 260, r"is undefined, and $f(0) = 0$)", color=INK, size=9.5)
    observed = sum(count > 0 for row in X for count in row)
    c.text(note_x, 320, f"{observed} of {len(WORDS) ** 2} cells observed;", size=9.5)
    c.text(note_x, 340, "X is symmetric, and the rows of king", size=9.5)
    c.text(note_x, 360, "and queen differ only in his / her", size=9.5)
    c.text(380, 405, r"$X_{ij}$ = number of (center $i$, context $j$) pairs that skipgram_pairs gives, over the corpus",
           size=9)
    return c
