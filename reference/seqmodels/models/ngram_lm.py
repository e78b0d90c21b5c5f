"""The n-gram language model with add-k smoothing: the count-based baseline that a neural language model
must beat (Jurafsky and Martin, *Speech and Language Processing*, ch. 3).

The probability of a token given the n - 1 tokens before it is its count after that context, plus k, over
the context's count plus k times the number of possible targets. With n = 1 and k = 1 it is the add-one
unigram baseline of ``seqmodels.tasks.language_models.unigram_perplexity``.
"""
import math
from collections import Counter

from seqmodels.text.vocab import encode

BOS, EOS = "<s>", "</s>"
NEVER_TARGETS = ("[PAD]", BOS)


def _windows(sequences: list[list[str]], vocab: dict[str, int], n: int):
    """(context, target) id pairs: targets t_1..t_m </s>, each after the n - 1 ids before it (<s> before the start)."""
    for sequence in sequences:
        ids = [vocab[BOS]] * (n - 1) + [*encode(sequence, vocab), vocab[EOS]]
        for i in range(n - 1, len(ids)):
            yield tuple(ids[i - n + 1:i]), ids[i]


def ngram_perplexity(train: list[list[str]], held_out: list[list[str]], vocab: dict[str, int], n: int,
                     k: float = 1.0) -> float:
    """Perplexity on ``held_out`` of the add-k smoothed n-gram model counted on ``train`` (tokens outside
    ``vocab`` count as [UNK]): P(w | c) = (count(c, w) + k) / (count(c) + k |V'|), V' the vocabulary
    without [PAD] and <s>, which are never targets."""
    if n < 1 or k <= 0:
        raise ValueError(f"ngram_perplexity needs n >= 1 and k > 0, got n={n}, k={k}")
    pair_counts = Counter(_windows(train, vocab, n))
    context_counts = Counter()
    for (context, _), count in pair_counts.items():
        context_counts[context] += count
    targets = len(vocab) - sum(token in vocab for token in NEVER_TARGETS)
    log_probs = [math.log((pair_counts[context, target] + k) / (context_counts[context] + k * targets))
                 for context, target in _windows(held_out, vocab, n)]
    return math.exp(-sum(log_probs) / len(log_probs))
