"""attend_with_cache lets the newest query see only the cached keys and values, not its own (it appends them afterwards).

answers: solution
loses: test_attend_with_cache test_attend_with_cache_contents
hint: the newest query attends over the cached keys and values and its own
"""
# %% attend_with_cache
def attend_with_cache(x_t, cache, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias, num_heads):
    B, _, D = x_t.shape
    biases = in_proj_bias.chunk(3) if in_proj_bias is not None else (0.0, 0.0, 0.0)
    q, k, v = ((x_t @ W.T + b).view(B, 1, num_heads, D // num_heads).transpose(1, 2)
               for W, b in zip(in_proj_weight.chunk(3), biases))
    seen_k, seen_v = (k, v) if cache is None else cache
    out, _ = scaled_dot_product_attention(q, seen_k, seen_v)
    out = out.transpose(1, 2).reshape(B, 1, D) @ out_proj_weight.T
    if out_proj_bias is not None:
        out = out + out_proj_bias
    if cache is not None:
        k, v = torch.cat([cache[0], k], dim=2), torch.cat([cache[1], v], dim=2)
    return out, (k, v)
