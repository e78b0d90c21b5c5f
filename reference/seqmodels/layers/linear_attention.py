"""Causal linear attention (Katharopoulos, Vyas, Pappas & Fleuret, 2020, "Transformers are RNNs: Fast
Autoregressive Transformers with Linear Attention", §3.2-3.4).

Replacing softmax's exp(q·k) by the product of feature maps φ(q)·φ(k), φ(x) = elu(x) + 1 (Eq. 7), lets the sums
over the keys be computed once and reused::

    out_t = φ(q_t)ᵀ S_t / (φ(q_t)ᵀ z_t + eps),   S_t = Σ_{s≤t} φ(k_s) v_sᵀ,   z_t = Σ_{s≤t} φ(k_s)     (Eqs. 8-9)

S_t and z_t are running sums: the same model is an RNN with the state (S_t, z_t) of fixed size d × e + d,
and in training the sums over s ≤ t are prefix sums (cumsum) over all positions at once.
"""
import torch
from torch.nn import functional as F


def linear_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    """``q, k [B, L, H, d]``, ``v [B, L, H, e]``: causal linear attention per head, ``[B, L, H, e]``."""
    phi_q, phi_k = F.elu(q) + 1, F.elu(k) + 1  # Eq. 7: positive features, so the normaliser is positive
    S = torch.cumsum(phi_k[..., :, None] * v[..., None, :], dim=1)  # S_t, [B, L, H, d, e] (Eq. 9)
    z = torch.cumsum(phi_k, dim=1)  # z_t, [B, L, H, d]
    numerator = torch.einsum("blhd,blhde->blhe", phi_q, S)
    return numerator / ((phi_q * z).sum(dim=-1, keepdim=True) + eps)  # Eq. 8
