"""The SwiGLU feed-forward network (Shazeer, 2020, "GLU Variants Improve Transformer", §2, FFN_SwiGLU), which
LLaMA (Touvron et al., 2023), Mistral and most open models since use in place of the GELU network::

    FFN_SwiGLU(x) = (Swish(x W) ⊗ x V) W2,     Swish(z) = z σ(z)   (SiLU; Shazeer's Swish_1)

Two projections instead of one: one, through Swish, gates the other elementwise; no biases. A gated network
of width F' has 3·D·F' weights against the GELU network's 2·D·F + F + D, so at equal parameter count
F' ≈ 2/3 · F (LLaMA uses 2/3 · 4D): ``swiglu_width``.
"""
import torch
from torch.nn import functional as F


def swiglu(x: torch.Tensor, w_gate: torch.Tensor, w_up: torch.Tensor, w_down: torch.Tensor) -> torch.Tensor:
    """``x [..., D]`` through (Swish(x Wᵀ) ⊗ x Vᵀ) W2ᵀ, with ``w_gate``, ``w_up`` ``[F', D]`` and ``w_down`` ``[D, F']``
    laid out as ``nn.Linear`` weights."""
    return F.linear(F.silu(F.linear(x, w_gate)) * F.linear(x, w_up), w_down)


def swiglu_width(dim: int, feedforward: int) -> int:
    """The width F' whose three bias-free matrices hold the nearest number of weights to the GELU network's
    (two matrices and two biases of width ``feedforward``): round((2·D·F + F + D) / (3·D))."""
    return round((2 * dim * feedforward + feedforward + dim) / (3 * dim))
