"""A synthetic corpus whose word frequencies follow Zipf's law.

Real text has a few very frequent words and a long tail of rare ones: the r-th
most frequent word occurs with probability proportional to 1 / r^s. Sampling
pseudo-words from that law gives a corpus with the same vocabulary statistics
(rare words, unknown words at test time) without downloading anything.
"""
import torch

_ONSETS = ["b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "st", "tr", "pl"]
_VOWELS = ["a", "e", "i", "o", "u", "ai", "ou"]


def pseudo_words(count: int, seed: int = 0) -> list[str]:
    """``count`` distinct pronounceable pseudo-words, the same ones for the same seed."""
    generator = torch.Generator().manual_seed(seed)
    words: list[str] = []
    seen: set[str] = set()
    while len(words) < count:
        syllables = 1 + int(torch.randint(3, (1,), generator=generator))
        word = "".join(
            _ONSETS[int(torch.randint(len(_ONSETS), (1,), generator=generator))]
            + _VOWELS[int(torch.randint(len(_VOWELS), (1,), generator=generator))]
            for _ in range(syllables)
        )
        if word not in seen:
            seen.add(word)
            words.append(word)
    return words


def zipf_corpus(
    num_documents: int,
    doc_length: int = 12,
    num_types: int = 5000,
    exponent: float = 1.1,
    seed: int = 0,
) -> list[list[str]]:
    """``num_documents`` documents of ``doc_length`` tokens drawn from a Zipf law over ``num_types`` words."""
    ranks = torch.arange(1, num_types + 1, dtype=torch.float64)
    probs = ranks.pow(-exponent)
    probs /= probs.sum()
    lexicon = pseudo_words(num_types, seed=seed)
    generator = torch.Generator().manual_seed(seed + 1)
    draws = torch.multinomial(probs, num_documents * doc_length, replacement=True, generator=generator)
    draws = draws.view(num_documents, doc_length).tolist()
    return [[lexicon[i] for i in row] for row in draws]
