"""attend_with_cache leaves out the input projections' biases (in_proj_bias), so its queries, keys and values are all off.

answers: solution
loses: test_attend_with_cache test_attend_with_cache_contents
hint: the newest query attends over the cached keys and values and its own
hint: K = x W_k^T + b_k
"""
# %% attend_with_cache
def attend_with_cache(x_t, cache, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias, num_heads):
    B, _, D = x_t.shape
    q, k, v = ((x_t @ W.T).view(B, 1, num_heads, D // num_heads).transpose(1, 2) for W in in_proj_weight.chunk(3))
    if cache is not None:
        k, v = torch.cat([cache[0], k], dim=2), torch.cat([cache[1], v], dim=2)
    out, _ = scaled_dot_product_attention(q, k, v)
    out = out.transpose(1, 2).reshape(B, 1, D) @ out_proj_weight.T
    if out_proj_bias is not None:
        out = out + out_proj_bias
    return out, (k, v)
