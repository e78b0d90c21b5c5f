"""bpe_encode merges only the first occurrence of the lowest-ranked pair, then chooses again: a pair of lower rank that the merge made is taken before the chosen pair's other occurrences.

answers: solution
loses: test_bpe_encode
hint: merge every occurrence of the chosen pair before choosing the next one
"""
# %% bpe_encode
def bpe_encode(word, merges):
    ranks = {pair: rank for rank, pair in enumerate(merges)}
    symbols = [*word[:-1], word[-1] + "</w>"]
    while len(symbols) > 1:
        pairs = list(zip(symbols, symbols[1:]))
        i = min(range(len(pairs)), key=lambda j: ranks.get(pairs[j], math.inf))
        if pairs[i] not in ranks:
            break
        symbols = symbols[:i] + [symbols[i] + symbols[i + 1]] + symbols[i + 2 :]
    return symbols
