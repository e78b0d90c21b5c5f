"""Pooling a padded sequence of vectors into one vector (Aziz F.2): sum, mean and max over real tokens.

``x`` is ``[B, L, D]`` and ``mask`` is ``[B, L]`` (True on real tokens, as ``pad_batch`` gives it);
every row has at least one real token. Padding contributes 0 to the sum, is not counted
by the mean, and is -inf for the max, so a padded batch pools exactly like its rows alone.
"""
import torch


def _check(x: torch.Tensor, mask: torch.Tensor, what: str) -> torch.Tensor:
    if x.dim() != 3 or mask.shape != x.shape[:2]:
        raise ValueError(f"{what} expects x [B, L, D] and mask [B, L], got {tuple(x.shape)} and {tuple(mask.shape)}")
    if not bool(mask.any(dim=1).all()):
        raise ValueError(f"{what}: every row needs at least one real token (a row of the mask is all False)")
    return mask.to(torch.bool).unsqueeze(-1)  # [B, L, 1], broadcast over D


def sum_pool(x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """sum_i x_i over the real tokens of each row: ``[B, D]``."""
    real = _check(x, mask, "sum_pool")
    return x.masked_fill(~real, 0).sum(dim=1)


def mean_pool(x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """The average of each row's real tokens (the CBOW / averaged-embedding encoder): ``[B, D]``."""
    real = _check(x, mask, "mean_pool")
    return x.masked_fill(~real, 0).sum(dim=1) / real.sum(dim=1).to(x.dtype)


def max_pool(x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """The elementwise maximum over each row's real tokens: ``[B, D]``."""
    real = _check(x, mask, "max_pool")
    return x.masked_fill(~real, float("-inf")).amax(dim=1)
