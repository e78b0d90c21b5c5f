"""bpe_encode merges the leftmost adjacent pair that has a rank, not the pair of lowest rank.

answers: solution
loses: test_bpe_encode
hint: pick the pair with the lowest rank among all adjacent pairs
"""
# %% bpe_encode
def bpe_encode(word, merges):
    ranks = {pair: rank for rank, pair in enumerate(merges)}
    symbols = [*word[:-1], word[-1] + "</w>"]
    while True:
        known = [i for i, pair in enumerate(zip(symbols, symbols[1:])) if pair in ranks]
        if not known:
            return symbols
        i = known[0]
        symbols = symbols[:i] + [symbols[i] + symbols[i + 1]] + symbols[i + 2 :]
