"""Mamba's selective state space (Gu & Dao, 2023, "Mamba: Linear-Time Sequence Modeling with Selective State
Spaces", Algorithm 2, §3.2): Δ, B and C depend on the input at every step, so the model can choose what to
keep in its state and what to ignore::

    Ā_t = exp(Δ_t A),   B̄_t u_t = Δ_t B_t u_t                    (Eq. 4 for A; the Euler rule for B)
    h_t = Ā_t ⊙ h_{t−1} + B̄_t u_t,   y_t = ⟨C_t, h_t⟩ + D ⊙ u_t   (Eq. 2a-2b)

The Euler rule for B̄ is the one of their reference code (selective_scan_ref).

Ā_t changes with t, so there is no single kernel and no convolution; the recurrence is a linear scan over
the D·N state (seqmodels.layers.scan).
"""
import torch

from seqmodels.layers.scan import linear_scan
from seqmodels.layers.scan_compiled import fast_linear_scan


def selective_scan(u: torch.Tensor, delta: torch.Tensor, A: torch.Tensor, B: torch.Tensor, C: torch.Tensor,
                   D_skip: torch.Tensor) -> torch.Tensor:
    """``u, delta [B, L, D]``, ``A [D, N]``, ``B, C [B, L, N]`` (shared by the channels), ``D_skip [D]``:
    the selective SSM's output ``[B, L, D]``."""
    return _selective(linear_scan, u, delta, A, B, C, D_skip)


def selective_scan_fast(u: torch.Tensor, delta: torch.Tensor, A: torch.Tensor, B: torch.Tensor, C: torch.Tensor,
                        D_skip: torch.Tensor) -> torch.Tensor:
    """``selective_scan`` with the scan's fast path (``fast_linear_scan``: the compiled loop on a CPU)."""
    return _selective(fast_linear_scan, u, delta, A, B, C, D_skip)


def _selective(scan, u, delta, A, B, C, D_skip) -> torch.Tensor:
    batch, L, D = u.shape
    N = A.shape[1]
    A_bar = torch.exp(delta[..., None] * A)  # [B, L, D, N]: Δ_t broadcast over the N states
    Bu = (delta * u)[..., None] * B[:, :, None, :]  # Δ_t B_t u_t, [B, L, D, N]
    h = scan(A_bar.reshape(batch, L, D * N), Bu.reshape(batch, L, D * N)).reshape(batch, L, D, N)
    return torch.einsum("bldn,bln->bld", h, C) + D_skip * u
