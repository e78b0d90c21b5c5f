"""Counts the specials like words: in an already padded corpus [PAD] is ranked and renumbered.

answers: solution
loses: test_build_vocab_ties_specials
hint: never counted as words
"""
# %% build_vocab
from collections import Counter


def build_vocab(corpus, min_freq=1, max_size=None, specials=("[PAD]", "[UNK]")):
    counts = Counter(token for document in corpus for token in document)
    kept = sorted((t for t, n in counts.items() if n >= min_freq), key=lambda t: (-counts[t], t))
    if max_size is not None:
        kept = kept[:max_size]
    vocab = {token: index for index, token in enumerate(specials)}
    for token in kept:
        vocab[token] = len(vocab)
    return vocab
