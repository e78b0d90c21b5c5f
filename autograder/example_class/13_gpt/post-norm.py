"""gpt_block normalises after each residual sum (post-norm, as chapter 12's blocks do) instead of before each sub-layer.

answers: solution
loses: test_gpt_block_torch test_gpt_block_masks
hint: pre-norm: LN1 before attention and LN2 before the FFN
"""
# %% gpt_block
def gpt_block(x, mask, params, num_heads):
    h = layer_norm(
        x + attention_heads(x, x, x, params["self_attn.in_proj_weight"], params["self_attn.in_proj_bias"],
                            params["self_attn.out_proj.weight"], params["self_attn.out_proj.bias"], num_heads,
                            key_mask=mask, causal=True),
        params["norm1.weight"], params["norm1.bias"])
    hidden = F.gelu(h @ params["linear1.weight"].T + params["linear1.bias"])
    return layer_norm(h + hidden @ params["linear2.weight"].T + params["linear2.bias"], params["norm2.weight"],
                      params["norm2.bias"])
