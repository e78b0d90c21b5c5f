"""Breaks ties by first appearance (Counter.most_common keeps insertion order), not alphabetically.

answers: solution
loses: test_build_vocab_table_f1 test_build_vocab_ties_specials
hint: tokens with equal counts are ordered alphabetically
"""
# %% build_vocab
from collections import Counter


def build_vocab(corpus, min_freq=1, max_size=None, specials=("[PAD]", "[UNK]")):
    counts = Counter(token for document in corpus for token in document if token not in specials)
    kept = [token for token, n in counts.most_common() if n >= min_freq]
    if max_size is not None:
        kept = kept[:max_size]
    return {token: index for index, token in enumerate([*specials, *kept])}
