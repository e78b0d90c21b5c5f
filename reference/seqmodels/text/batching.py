"""Stacking sequences of different lengths into one rectangular batch."""
from collections.abc import Sequence

import torch


def pad_batch(seqs: Sequence[Sequence[int]], pad_id: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    """Right-pad ``seqs`` to the longest one.

    Returns ``ids`` (``LongTensor[B, L]``, ``pad_id`` after each row's end) and
    ``mask`` (``BoolTensor[B, L]``, ``True`` on real tokens, ``False`` on padding).
    """
    if len(seqs) == 0:
        raise ValueError("pad_batch needs at least one sequence")
    longest = max(len(s) for s in seqs)
    ids = torch.full((len(seqs), longest), pad_id, dtype=torch.long)
    mask = torch.zeros((len(seqs), longest), dtype=torch.bool)
    for row, seq in enumerate(seqs):
        ids[row, : len(seq)] = torch.as_tensor(list(seq), dtype=torch.long)
        mask[row, : len(seq)] = True
    return ids, mask
