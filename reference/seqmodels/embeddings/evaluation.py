"""Scoring word vectors on the standard benchmarks (chapter 03; seqmodels.data.word_benchmarks).

A benchmark can only ask about words that have a vector, so each score comes with the number of
questions or pairs it was computed on: vectors from a small corpus cover a fraction of a benchmark,
and a correlation over 60 pairs is a much rougher estimate than one over 353.
"""
from collections.abc import Iterable, Mapping

import torch

from seqmodels.embeddings.similarity import analogy, cosine_similarity


def average_ranks(x: torch.Tensor) -> torch.Tensor:
    """Ranks 1..n of the values of ``x`` (float64); tied values share the mean of the ranks they occupy."""
    order = x.argsort()
    _, group, size = torch.unique_consecutive(x[order], return_inverse=True, return_counts=True)
    last = size.cumsum(0).double()  # the rank of each group's last member
    ranks = torch.empty(len(x), dtype=torch.float64)
    ranks[order] = (last - (size - 1) / 2)[group]  # the mean of last - size + 1, ..., last
    return ranks


def spearman(x: torch.Tensor, y: torch.Tensor) -> float:
    """Spearman's rank correlation of two 1-D tensors: the Pearson correlation of their average ranks."""
    rx, ry = average_ranks(x), average_ranks(y)
    rx, ry = rx - rx.mean(), ry - ry.mean()
    return float((rx @ ry) / (rx.norm() * ry.norm()))


def analogy_accuracy(E: torch.Tensor, vocab: Mapping[str, int],
                     questions: Iterable[tuple[str, str, str, str]]) -> tuple[float, int]:
    """The fraction of the questions (a, b, c, d) whose four words are in ``vocab`` that ``analogy`` answers
    with d, and how many such questions there were (accuracy 0 when none)."""
    asked = [q for q in questions if all(word in vocab for word in q)]
    right = sum(analogy(a, b, c, E, vocab) == [d] for a, b, c, d in asked)
    return right / max(len(asked), 1), len(asked)


def similarity_correlation(E: torch.Tensor, vocab: Mapping[str, int],
                           pairs: Iterable[tuple[str, str, float]]) -> tuple[float, int]:
    """Spearman's correlation between the vectors' cosine similarity and the human rating, over the pairs
    whose two words are in ``vocab``, and how many such pairs there were."""
    known = [(vocab[a], vocab[b], rating) for a, b, rating in pairs if a in vocab and b in vocab]
    if len(known) < 2:
        return 0.0, len(known)
    first, second, ratings = zip(*known)
    similarity = cosine_similarity(E[list(first)].float(), E[list(second)].float()).cpu()
    return spearman(similarity, torch.tensor(ratings)), len(known)
