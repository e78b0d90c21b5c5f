"""Vocabularies: the fixed map from tokens to 0-based ids (Aziz, Table F.1)."""
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

PAD = "[PAD]"
UNK = "[UNK]"


def build_vocab(
    corpus: Iterable[Sequence[str]],
    min_freq: int = 1,
    max_size: int | None = None,
    specials: Sequence[str] = (PAD, UNK),
) -> dict[str, int]:
    """Map every token of ``corpus`` to an id.

    The specials come first with ids 0, 1, ...; then each token seen at least
    ``min_freq`` times, most frequent first, ties in alphabetical order so the
    vocabulary never depends on the order of the corpus. ``max_size`` caps the
    number of non-special tokens. Special symbols that occur inside the corpus
    (an already padded batch, say) keep their reserved id and are not counted.
    """
    if min_freq < 1:
        raise ValueError(f"min_freq must be at least 1, got {min_freq}")
    if max_size is not None and max_size < 0:
        raise ValueError(f"max_size must be None or non-negative, got {max_size}")
    if len(set(specials)) != len(specials):
        raise ValueError(f"specials must be distinct, got {tuple(specials)}")
    reserved = set(specials)
    counts = Counter(token for document in corpus for token in document if token not in reserved)
    kept = sorted((t for t, n in counts.items() if n >= min_freq), key=lambda t: (-counts[t], t))
    if max_size is not None:
        kept = kept[:max_size]
    return {token: index for index, token in enumerate([*specials, *kept])}


def encode(tokens: Iterable[str], vocab: Mapping[str, int], unk: str = UNK) -> list[int]:
    """Replace each token by its id; tokens outside ``vocab`` become the id of ``unk``."""
    unk_id = vocab.get(unk)
    ids = []
    for token in tokens:
        index = vocab.get(token, unk_id)
        if index is None:
            raise KeyError(f"token {token!r} is not in the vocabulary, which has no {unk!r} entry to fall back on")
        ids.append(index)
    return ids


def decode(ids: Iterable[int], vocab: Mapping[str, int]) -> list[str]:
    """Inverse of :func:`encode`: map ids back to their tokens."""
    tokens = {index: token for token, index in vocab.items()}
    out = []
    for index in ids:
        index = int(index)
        if index not in tokens:
            raise KeyError(f"id {index} is not in the vocabulary (ids run from 0 to {len(vocab) - 1})")
        out.append(tokens[index])
    return out
