"""The first-order linear recurrence h_t = a_t ⊙ h_{t−1} + b_t as a parallel prefix scan (Blelloch, 1990,
"Prefix Sums and Their Applications", §1.4 on first-order recurrences; Smith, Warrington & Linderman, 2023,
S5, §2.2 and Appendix H).

Each step is the pair (a_t, b_t), and two steps compose with the associative operator

    (a₁, b₁) ∘ (a₂, b₂) = (a₁ a₂,  a₂ b₁ + b₂)                                     (S5, Eq. 7; Blelloch §1.4)

so h_t is the b-part of (a_0, b_0) ∘ ... ∘ (a_t, b_t). Hillis and Steele's scan composes each position with
the one 1, 2, 4, ... places before it: after ⌈log₂ L⌉ rounds every position holds its whole prefix. It does
O(L log L) work in O(log L) parallel steps, and it never divides, so decays that underflow to 0 stay exact
(cumprod-and-divide, h_t = P_t Σ_s b_s / P_s with P_t = a_0 ⋯ a_t, divides by products that underflow).
"""
import torch


def linear_scan(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """``h [B, L, D]`` with h_t = a_t ⊙ h_{t−1} + b_t from h_{−1} = 0, for ``a, b [B, L, D]``."""
    L, offset = a.shape[1], 1
    while offset < L:
        # compose each position with the prefix `offset` places before it; positions before the start compose
        # with the identity (1, 0). New tensors each round: autograd needs the old ones
        a_before = torch.cat([torch.ones_like(a[:, :offset]), a[:, :-offset]], dim=1)
        b_before = torch.cat([torch.zeros_like(b[:, :offset]), b[:, :-offset]], dim=1)
        a, b = a_before * a, a * b_before + b  # (a_before, b_before) ∘ (a, b), S5 Eq. 7
        offset *= 2
    return b
