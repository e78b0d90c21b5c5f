"""attend_with_cache hands the attention to PyTorch's fused kernel inside a worker thread.

answers: solution
layer: worker
loses: test_attend_with_cache test_attend_with_cache_contents
says: torch.nn.functional.scaled_dot_product_attention
"""
# %% attend_with_cache
from concurrent.futures import ThreadPoolExecutor

import torch.nn.functional as F


def attend_with_cache(x_t, cache, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias, num_heads):
    def run():
        B, _, D = x_t.shape
        biases = in_proj_bias.chunk(3) if in_proj_bias is not None else (0.0, 0.0, 0.0)
        q, k, v = ((x_t @ W.T + b).view(B, 1, num_heads, D // num_heads).transpose(1, 2)
                   for W, b in zip(in_proj_weight.chunk(3), biases))
        if cache is not None:
            k, v = torch.cat([cache[0], k], dim=2), torch.cat([cache[1], v], dim=2)
        out = F.scaled_dot_product_attention(q, k, v).transpose(1, 2).reshape(B, 1, D) @ out_proj_weight.T
        return (out if out_proj_bias is None else out + out_proj_bias), (k, v)

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()
