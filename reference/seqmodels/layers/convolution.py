"""Convolutions (Xiao Secs. 4.4.1-4.4.2): the 2-D feature map of one filter, same-length 1-D convolution over
a sequence of vectors, max-over-time pooling, receptive fields and the char-CNN word vector (Eq. 4.87).

As in every CNN library, "convolution" here is a cross-correlation: the filter is not flipped (Eq. 4.33).

A 1-D filter of width r (odd) looks at r consecutive word vectors; zero padding of (r - 1) / 2 on
both sides keeps the output as long as the input (Fig. 4.7):

    h[b, i, f] = bias[f] + Σ_{k=0}^{r-1} Σ_d x[b, i + k - (r-1)/2, d] · filters[f, k, d]
"""
import torch
from torch.nn import functional as F


def conv2d(A: torch.Tensor, K: torch.Tensor, stride: int = 1, padding: int = 0) -> torch.Tensor:
    """The feature map of filter K on the matrix A (Xiao Eqs. 4.33-4.42): A [H, W], K [kh, kw] -> [H', W'].

    A gets ``padding`` rows/columns of zeros on every side (Eq. 4.40); the filter moves ``stride`` cells at a
    time, so H' = (H + 2 padding - kh) // stride + 1 (and W' likewise). Entry (i, j) is the sum of the
    window of A at (i stride, j stride) weighted elementwise by K (Eq. 4.38; no flipping).
    """
    if stride < 1 or padding < 0:
        raise ValueError(f"conv2d needs stride >= 1 and padding >= 0, got stride={stride}, padding={padding}")
    padded = F.pad(A, (padding, padding, padding, padding))  # zeros around A (Eq. 4.40)
    kh, kw = K.shape
    rows, cols = (padded.shape[0] - kh) // stride + 1, (padded.shape[1] - kw) // stride + 1
    if rows < 1 or cols < 1:
        raise ValueError(f"a {kh}x{kw} filter does not fit in the {tuple(padded.shape)} padded input")
    out = torch.zeros(rows, cols, dtype=torch.result_type(A, K), device=A.device)
    for a in range(kh):  # one shifted, strided view of A per filter weight: out += K[a, b] * A[i s + a, j s + b]
        for b in range(kw):
            window = padded[a : a + stride * (rows - 1) + 1 : stride, b : b + stride * (cols - 1) + 1 : stride]
            out = out + K[a, b] * window
    return out


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
