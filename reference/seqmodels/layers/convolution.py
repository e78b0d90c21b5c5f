"""Convolutions over sequences (Xiao Secs. 4.4.1-4.4.2): same-length 1-D convolution and max-over-time pooling.

A filter of width r (odd) looks at r consecutive word vectors; zero padding of (r - 1) / 2 on
both sides keeps the output as long as the input (Fig. 4.7):

    h[b, i, f] = bias[f] + Σ_{k=0}^{r-1} Σ_d x[b, i + k - (r-1)/2, d] · filters[f, k, d]
"""
import torch
from torch.nn import functional as F


def conv1d_same(x: torch.Tensor, filters: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """x [B, L, D], filters [F, r, D] (r odd), bias [F] -> [B, L, F]."""
    r = filters.shape[1]
    if r % 2 == 0:
        raise ValueError(f"conv1d_same needs an odd filter width, got r = {r}")
    half = (r - 1) // 2
    padded = F.pad(x, (0, 0, half, half))  # zeros before and after the sequence axis
    windows = torch.stack([padded[:, k : k + x.shape[1]] for k in range(r)], dim=2)  # [B, L, r, D]
    return torch.einsum("blrd,frd->blf", windows, filters) + bias


def max_over_time(h: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """The largest value of each feature over each row's real positions: h [B, L, F] -> [B, F]."""
    return h.masked_fill(~mask.to(torch.bool).unsqueeze(-1), float("-inf")).amax(dim=1)


def char_cnn_word_vector(char_ids: torch.Tensor, E_char: torch.Tensor, filters: torch.Tensor,
                         bias: torch.Tensor) -> torch.Tensor:
    """A word's vector from its characters (Xiao Eq. 4.87, after Kim et al., 2016): embed the L characters,
    convolve them with ``conv1d_same`` (so every character has one output), tanh, max over the characters.

    char_ids [L], E_char [V, D], filters [F, r, D] (r odd), bias [F] -> [F].
    """
    h = torch.tanh(conv1d_same(E_char[char_ids].unsqueeze(0), filters, bias))  # [1, L, F]
    return h.amax(dim=1).squeeze(0)


def receptive_field(num_layers: int, r: int, stride: int = 1) -> int:
    """How many input positions one output of ``num_layers`` stacked convolutions sees (Fig. 4.8)."""
    field, jump = 1, 1
    for _ in range(num_layers):
        field += (r - 1) * jump
        jump *= stride
    return field
