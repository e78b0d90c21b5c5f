"""A classifier that sees word order only through positional encodings (chapter 08; Xiao Sec. 4.4.3).

    xp_i = E[t_i] + P[i]                    (Eq. 4.63; P sinusoidal, learned, or absent)
    h_i  = relu(W1 xp_i + b1)               (the same feed-forward layer at every position)
    z    = max_{i : mask_i} h_i,   logits = W2 z + b2

No recurrence and no convolution: without P the model is a bag of words (permuting the
tokens permutes the h_i, and the max does not care). The layer between the merge and the
pooling matters too: pooling x_i + P[i] directly would add the same sum of P to every
sequence of a given length, whatever the order of its words.

``positions``: ``"sinusoidal"`` (a fixed table from ``pe_fn``, Eqs. 4.57-4.58), ``"learned"``
(a trainable table, Xiao's learnable positional encoding, Eq. 4.64) or ``"none"``.
``hand_written=True`` merges with the course's ``add_positions`` (or ``add_fn``, e.g. a student's);
otherwise plain tensor code. Same logits. Both paths pool with ``pool_fn`` (default ``max_pool``).
"""
from collections.abc import Callable

import torch
from torch import nn
from torch.nn import functional as F

from seqmodels.layers.pooling import max_pool
from seqmodels.layers.positional import add_positions, sinusoidal_pe

POSITIONS = ("none", "sinusoidal", "learned")


class PositionClassifier(nn.Module):
    """Word vectors + positions (``"none"``, ``"sinusoidal"`` or ``"learned"``), a per-position ReLU layer, masked
    max pooling and a linear layer: ``forward(ids [B, L], mask [B, L]) -> logits [B, classes]``."""

    def __init__(self, vocab_size: int, dim: int, classes: int, *, positions: str = "sinusoidal", max_len: int = 64,
                 hidden: int = 64, hand_written: bool = False, pe_fn: Callable = sinusoidal_pe,
                 add_fn: Callable = add_positions, pool_fn: Callable = max_pool):
        super().__init__()
        if positions not in POSITIONS:
            raise ValueError(f"positions must be one of {POSITIONS}, got {positions!r}")
        self.positions, self.max_len = positions, max_len
        self.embedding = nn.Embedding(vocab_size, dim, padding_idx=0)
        if positions == "sinusoidal":
            self.register_buffer("P", pe_fn(max_len, dim).to(torch.get_default_dtype()))
        elif positions == "learned":
            self.P = nn.Parameter(torch.randn(max_len, dim))  # initialised like the word vectors
        self.hidden = nn.Linear(dim, hidden)
        self.out = nn.Linear(hidden, classes)
        self.hand_written, self.add_fn, self.pool_fn = hand_written, add_fn, pool_fn

    def merge(self, ids: torch.Tensor) -> torch.Tensor:
        """xp: the word vectors with their positions merged in, ``[B, L, D]``."""
        x = self.embedding(ids)
        if self.positions == "none":
            return x
        if ids.shape[1] > self.max_len:
            raise ValueError(f"sequences of length {ids.shape[1]} exceed the {self.max_len} positions of the table")
        if self.hand_written:
            return self.add_fn(x, self.P, mode="add")
        return x + self.P[: ids.shape[1]].to(x.dtype)

    def forward(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return self.out(self.pool_fn(F.relu(self.hidden(self.merge(ids))), mask))
