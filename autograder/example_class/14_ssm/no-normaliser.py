"""linear_attention runs the RNN form phi(q_t) S_t but leaves out the normaliser phi(q_t) . z_t + eps: the outputs are weighted sums that grow with t, not weighted means.

answers: solution
loses: test_linear_attention test_linear_attention_eps
hint: without the normaliser the outputs are sums, not means
"""
# %% linear_attention
def linear_attention(q, k, v, eps=1e-6):
    phi_q, phi_k = F.elu(q) + 1, F.elu(k) + 1
    S = torch.cumsum(phi_k[..., :, None] * v[..., None, :], dim=1)
    return torch.einsum("blhd,blhde->blhe", phi_q, S)
