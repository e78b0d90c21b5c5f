"""The averaged-embedding (CBOW) classifier of chapter 02: mean of the word vectors, then a feed-forward net.

    z = mean_{i : mask_i} E[t_i],   logits = W2 relu(W1 z + b1) + b2   (Aziz Eqs. F.8-F.9)

The hidden layer matters: "not" flips an adjective, an interaction no linear function of
the average can express.

``hand_written=True`` computes z with the course's own ``embed`` and ``mean_pool`` (or the
functions passed in, e.g. a student's); otherwise with ``F.embedding_bag(mode="mean")``,
PyTorch's fused kernel for exactly this sum. Both give the same logits for the same weights.
The model sees a bag of words: it cannot tell "good but dull" from "dull but good".
"""
from collections.abc import Callable

import torch
from torch import nn
from torch.nn import functional as F

from seqmodels.layers.embedding import embed
from seqmodels.layers.pooling import mean_pool


class AveragedEmbeddingClassifier(nn.Module):
    def __init__(self, vocab_size: int, dim: int, classes: int, *, hidden: int = 64, hand_written: bool = False,
                 embed_fn: Callable = embed, pool_fn: Callable = mean_pool):
        super().__init__()
        self.E = nn.Parameter(0.1 * torch.randn(vocab_size, dim))
        self.out = nn.Sequential(nn.Linear(dim, hidden), nn.ReLU(), nn.Linear(hidden, classes))
        self.hand_written, self.embed_fn, self.pool_fn = hand_written, embed_fn, pool_fn

    def encode(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """z: the mean of each row's real word vectors, ``[B, D]``."""
        if self.hand_written:
            return self.pool_fn(self.embed_fn(ids, self.E), mask)
        weights = mask.to(self.E.dtype)  # padding gets weight 0; mode="sum" then divide = a masked mean
        summed = F.embedding_bag(ids, self.E, per_sample_weights=weights, mode="sum")
        return summed / weights.sum(dim=1, keepdim=True)

    def forward(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return self.out(self.encode(ids, mask))
