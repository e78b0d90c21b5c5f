"""Alternative correct answers: einsum for the FFN, a loop over the heads, the state dict read through a helper, functools.reduce over the blocks.

answers: solution
loses: nothing
"""
# %% position_wise_ffn
def position_wise_ffn(x, W1, b1, W2, b2):
    hidden = torch.clamp(torch.einsum("bld,fd->blf", x, W1) + b1, min=0.0)
    return torch.einsum("blf,df->bld", hidden, W2) + b2


# %% attention_heads
def attention_heads(q, k, v, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias, num_heads, key_mask=None,
                    causal=False):
    D = q.shape[-1]
    size = D // num_heads
    Q = q @ in_proj_weight[:D].T + in_proj_bias[:D]
    K = k @ in_proj_weight[D:2 * D].T + in_proj_bias[D:2 * D]
    V = v @ in_proj_weight[2 * D:].T + in_proj_bias[2 * D:]
    heads = []
    for h in range(num_heads):
        columns = slice(h * size, (h + 1) * size)
        out, _ = scaled_dot_product_attention(Q[..., columns], K[..., columns], V[..., columns], key_mask, causal)
        heads.append(out)
    return torch.cat(heads, dim=-1) @ out_proj_weight.T + out_proj_bias


# %% encoder_block
def sublayer_weights(params, name):
    return [params[f"{name}.{part}"] for part in ("in_proj_weight", "in_proj_bias", "out_proj.weight", "out_proj.bias")]


def encoder_block(x, mask, params, num_heads):
    h = layer_norm(x + attention_heads(x, x, x, *sublayer_weights(params, "self_attn"), num_heads, key_mask=mask),
                   params["norm1.weight"], params["norm1.bias"])
    ffn = position_wise_ffn(h, *(params[f"linear{n}.{kind}"] for n in (1, 2) for kind in ("weight", "bias")))
    return layer_norm(h + ffn, params["norm2.weight"], params["norm2.bias"])


# %% decoder_block
def decoder_block(y, memory, y_mask, memory_mask, params, num_heads):
    out = y
    for name, keys, mask, causal, norm in [("self_attn", None, y_mask, True, "norm1"),
                                           ("multihead_attn", memory, memory_mask, False, "norm2")]:
        source = out if keys is None else keys
        attended = attention_heads(out, source, source, *sublayer_weights(params, name), num_heads, key_mask=mask,
                                   causal=causal)
        out = add_and_norm(out, attended, params[f"{norm}.weight"], params[f"{norm}.bias"])
    ffn = position_wise_ffn(out, params["linear1.weight"], params["linear1.bias"], params["linear2.weight"],
                            params["linear2.bias"])
    return add_and_norm(out, ffn, params["norm3.weight"], params["norm3.bias"])


# %% transformer_encode
import functools


def transformer_encode(ids, mask, embedding, blocks, num_heads):
    L, D = ids.shape[1], embedding.shape[1]
    positions = sinusoidal_pe(L, D).to(device=embedding.device, dtype=embedding.dtype)
    x = torch.index_select(embedding, 0, ids.reshape(-1)).view(*ids.shape, D) * D ** 0.5 + positions
    return functools.reduce(lambda z, params: encoder_block(z, mask, params, num_heads), blocks, x)
