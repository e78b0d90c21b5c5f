"""Rotary position embeddings, RoPE (Su et al., 2021, "RoFormer: Enhanced Transformer with Rotary Position
Embedding", Eq. 34): the relative positions that chapter 08 announced.

Each feature pair (x_2i, x_2i+1) of a query or key at position m turns by the angle m·θ_i::

    θ_i = base^(−2i/d),  i = 0 .. d/2 − 1
    (x_2i, x_2i+1) -> (x_2i cos mθ_i − x_2i+1 sin mθ_i,  x_2i sin mθ_i + x_2i+1 cos mθ_i)       (Eq. 34)

A rotation keeps lengths, and turning q by mθ and k by nθ turns their dot product by (m − n)θ only, so
rope(q)_m · rope(k)_n depends on the positions through m − n alone (Su et al., Eqs. 11-16). The angles
are computed in float64 and the result is in ``x``'s dtype.
"""
import torch


def rope_angles(positions: torch.Tensor, d: int, base: float = 10000.0) -> torch.Tensor:
    """m·θ_i for every position m of ``positions [L]`` and pair i: ``[L, d/2]`` in float64."""
    if d % 2:
        raise ValueError(f"RoPE rotates feature pairs: the size {d} must be even")
    theta = base ** (-torch.arange(0, d, 2, dtype=torch.float64, device=positions.device) / d)
    return positions.to(torch.float64)[:, None] * theta


def rope(x: torch.Tensor, positions: torch.Tensor, base: float = 10000.0) -> torch.Tensor:
    """``x [B, L, H, d]`` with the pair (2i, 2i+1) at position ``positions[l]`` rotated by positions[l]·θ_i."""
    angles = rope_angles(positions, x.shape[-1], base)[:, None, :]  # [L, 1, d/2]: the same for every head
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    even, odd = x[..., 0::2], x[..., 1::2]
    return torch.stack([even * cos - odd * sin, even * sin + odd * cos], dim=-1).flatten(-2)
