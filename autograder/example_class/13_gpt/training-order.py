"""bpe_encode applies each merge once, in the order of the list (as training made them), instead of repeatedly merging the adjacent pair of lowest rank: it agrees on every merge list training produces, not on one where a merge makes a pair of lower rank.

answers: solution
loses: test_bpe_encode
hint: after each merge look at every adjacent pair again and take the lowest rank
"""
# %% bpe_encode
def bpe_encode(word, merges):
    symbols = [*word[:-1], word[-1] + "</w>"]
    for pair in merges:
        merged, i = [], 0
        while i < len(symbols):
            if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == pair:
                merged.append(symbols[i] + symbols[i + 1])
                i += 2
            else:
                merged.append(symbols[i])
                i += 1
        symbols = merged
    return symbols
