"""An honest, correct submission graded in the same batch, with its own bpe_encode (a rank lookup per pass).

answers: solution
loses: nothing
"""
# %% bpe_encode
def bpe_encode(word, merges):
    rank = {pair: i for i, pair in enumerate(merges)}
    symbols = list(word[:-1]) + [word[-1] + "</w>"]
    while True:
        ranked = [(rank[p], p) for p in zip(symbols, symbols[1:]) if p in rank]
        if not ranked:
            return symbols
        best = min(ranked)[1]
        out, i = [], 0
        while i < len(symbols):
            if tuple(symbols[i : i + 2]) == best:
                out.append(best[0] + best[1])
                i += 2
            else:
                out.append(symbols[i])
                i += 1
        symbols = out
