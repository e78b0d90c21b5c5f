"""Lets max_size count the specials too, so max_size=2 keeps no word at all (and 0 drops specials).

answers: solution
loses: test_build_vocab_min_freq_max_size test_build_vocab_ties_specials
hint: max_size counts the non-special tokens only
"""
# %% build_vocab
from collections import Counter


def build_vocab(corpus, min_freq=1, max_size=None, specials=("[PAD]", "[UNK]")):
    counts = Counter(token for document in corpus for token in document if token not in specials)
    kept = sorted((t for t, n in counts.items() if n >= min_freq), key=lambda t: (-counts[t], t))
    vocab = [*specials, *kept]
    if max_size is not None:
        vocab = vocab[:max_size]
    return {token: index for index, token in enumerate(vocab)}
