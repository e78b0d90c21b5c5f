"""Correct answers written with ordinary imports and helpers: nothing is flagged.

answers: solution
loses: nothing
"""
# %% build_vocab
import itertools
import math
from collections import defaultdict


def build_vocab(corpus, min_freq=1, max_size=None, specials=("[PAD]", "[UNK]")):
    counts = defaultdict(int)
    for token in itertools.chain.from_iterable(corpus):
        if token not in specials:
            counts[token] += 1
    kept = sorted((t for t in counts if counts[t] >= min_freq), key=lambda t: (-counts[t], t))
    limit = math.inf if max_size is None else max_size
    kept = [t for i, t in enumerate(kept) if i < limit]
    return {t: i for i, t in enumerate([*specials, *kept])}
