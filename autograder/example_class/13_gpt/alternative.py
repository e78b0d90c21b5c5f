"""Correct answers written differently: rope through complex numbers, gpt_block with GELU through erf and its parameters grouped by layer.

answers: solution
loses: nothing
"""
# %% rope
def rope(x, positions, base=10000.0):
    d = x.shape[-1]
    theta = base ** (-torch.arange(0, d, 2, dtype=torch.float64, device=x.device) / d)
    turn = torch.polar(torch.ones_like(theta), positions.to(torch.float64)[:, None] * theta)  # [L, d/2]
    pairs = torch.view_as_complex(x.to(torch.float64).reshape(*x.shape[:-1], d // 2, 2).contiguous())
    return torch.view_as_real(pairs * turn[:, None, :]).reshape(x.shape).to(x.dtype)


# %% gpt_block
def gpt_block(x, mask, params, num_heads):
    def sub(name):
        return {key.split(".", 1)[1]: value for key, value in params.items() if key.startswith(name + ".")}

    attn, n1, n2 = sub("self_attn"), sub("norm1"), sub("norm2")
    a = layer_norm(x, n1["weight"], n1["bias"])
    x = x + attention_heads(a, a, a, attn["in_proj_weight"], attn["in_proj_bias"], attn["out_proj.weight"],
                            attn["out_proj.bias"], num_heads, key_mask=mask, causal=True)
    u = layer_norm(x, n2["weight"], n2["bias"]) @ params["linear1.weight"].T + params["linear1.bias"]
    gelu = 0.5 * u * (1 + torch.erf(u / math.sqrt(2)))
    return x + gelu @ params["linear2.weight"].T + params["linear2.bias"]
