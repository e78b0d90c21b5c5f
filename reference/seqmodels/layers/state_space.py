"""A diagonal linear state-space model: the continuous system, its zero-order-hold discretisation and its
convolution kernel (Gu, Goel & Ré, 2022, "Efficiently Modeling Long Sequences with Structured State Spaces",
S4; Gu, Gupta, Goel & Ré, 2022, "On the Parameterization and Initialization of Diagonal State Space Models", S4D).

Each of D channels has a state of N numbers that evolves independently (A is diagonal, stored as ``[D, N]``)::

    h'(t) = A h(t) + B u(t),   y(t) = C h(t)                                        (S4, Eq. 1)
    Ā = exp(ΔA),   B̄ = (ΔA)^−1 (exp(ΔA) − I) ΔB                                     (zero-order hold, S4D Eq. 4)
    h_k = Ā h_{k−1} + B̄ u_k,   y_k = C h_k                                           (S4, Eq. 2)
    K = (C B̄, C Ā B̄, C Ā² B̄, ...),   y = K * u                                     (S4, Eqs. 4-5)

The last line is why one model has two views: unrolling the recurrence from h_{−1} = 0 gives
y_k = Σ_j C Ā^j B̄ u_{k−j}, a causal convolution with the kernel K.
"""
import torch


def discretize(A: torch.Tensor, B: torch.Tensor, delta: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Zero-order hold for a diagonal ``A [D, N]``, ``B [D, N]`` and step sizes ``delta [D]`` (one per channel,
    broadcast over the N states): ``(A_bar, B_bar)``, both ``[D, N]``."""
    delta_A = delta[:, None] * A
    # (exp(ΔA) − 1)/A · B (S4D, Eq. 4 for diagonal A). expm1 keeps every digit when ΔA is tiny, where exp(ΔA) − 1
    # loses them all (exp(1e−12) rounds to 1 in float32), and B̄ tends to ΔB as it should
    return torch.exp(delta_A), torch.expm1(delta_A) / A * B


def ssm_kernel(A_bar: torch.Tensor, B_bar: torch.Tensor, C: torch.Tensor, L: int) -> torch.Tensor:
    """The SSM convolution kernel ``K [D, L]``: K[d, k] = Σ_n C[d, n] Ā[d, n]^k B̄[d, n] (S4, Eq. 5; S4D's
    Vandermonde product, Eq. 6)."""
    powers = A_bar[..., None] ** torch.arange(L, device=A_bar.device, dtype=A_bar.dtype)  # [D, N, L]: Ā^k
    return torch.einsum("dn,dnl->dl", C * B_bar, powers)
