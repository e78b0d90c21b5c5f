"""Querying word vectors by cosine similarity: neighbours and analogies (course notes §2)."""
from collections.abc import Iterable, Mapping

import torch


def cosine_similarity(u: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    """``u·v / (‖u‖ ‖v‖)`` over the last axis (broadcasting), shape ``[...]``; 0 for a zero vector."""
    norms = u.norm(dim=-1) * v.norm(dim=-1)
    return (u * v).sum(dim=-1) / torch.where(norms > 0, norms, torch.ones_like(norms))


def most_similar(q: torch.Tensor, E: torch.Tensor, k: int, exclude: Iterable[int] = ()) -> list[int]:
    """Ids of the ``k`` rows of ``E`` most cosine-similar to ``q``, best first, skipping ``exclude``."""
    scores = cosine_similarity(E, q.unsqueeze(0)).clone()
    excluded = list(exclude)
    if excluded:
        scores[excluded] = float("-inf")
    k = min(k, E.shape[0] - len(set(excluded)))
    return scores.topk(k).indices.tolist()


def analogy(a: str, b: str, c: str, E: torch.Tensor, vocab: Mapping[str, int], k: int = 1) -> list[str]:
    """a is to b as c is to ?: the words nearest to ``e_b - e_a + e_c``, excluding a, b and c."""
    ids = [vocab[w] for w in (a, b, c)]
    token_of = {i: t for t, i in vocab.items()}
    return [token_of[i] for i in most_similar(E[ids[1]] - E[ids[0]] + E[ids[2]], E, k, exclude=ids)]
