"""linear_attention sums phi(k_s) v_s^T over all positions (Eq. 6, the non-causal form) instead of s <= t: every output sees the future.

answers: solution
loses: test_linear_attention test_linear_attention_eps
hint: causal: out_t uses the keys and values s <= t only
"""
# %% linear_attention
def linear_attention(q, k, v, eps=1e-6):
    phi_q, phi_k = F.elu(q) + 1, F.elu(k) + 1
    S = torch.einsum("blhd,blhe->bhde", phi_k, v)
    z = phi_k.sum(dim=1)
    return torch.einsum("blhd,bhde->blhe", phi_q, S) / (torch.einsum("blhd,bhd->blh", phi_q, z)[..., None] + eps)
