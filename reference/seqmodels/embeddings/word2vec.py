"""Skip-gram with negative sampling (course notes §2; Mikolov et al., 2013)."""
import torch
from torch.nn import functional as F


def skipgram_pairs(ids: list[int], window: int) -> list[tuple[int, int]]:
    """(center, context) for every context within ``window`` positions of each center, in reading order."""
    return [(center, ids[j]) for i, center in enumerate(ids)
            for j in range(max(0, i - window), min(len(ids), i + window + 1)) if j != i]


def noise_distribution(counts: torch.Tensor, power: float = 0.75) -> torch.Tensor:
    """``P_n(w) ∝ count(w)^power``: the unigram distribution flattened, so rare words are drawn more often.
    A word never seen is never drawn, even at power 0 (where 0 ** 0 would be 1)."""
    counts64 = counts.to(torch.float64)
    weights = torch.where(counts64 > 0, counts64.clamp(min=0) ** power, 0.0)
    return (weights / weights.sum()).to(counts.dtype if counts.is_floating_point() else torch.float32)


def negative_sampling_loss(center: torch.Tensor, context: torch.Tensor, negatives: torch.Tensor) -> torch.Tensor:
    """Mean over the batch of ``-log σ(c·o) - Σ_k log σ(-c·n_k)``; center/context ``[B, D]``, negatives ``[B, K, D]``."""
    positive = F.logsigmoid((center * context).sum(dim=-1))
    negative = F.logsigmoid(-(negatives @ center.unsqueeze(-1)).squeeze(-1)).sum(dim=-1)
    return -(positive + negative).mean()
