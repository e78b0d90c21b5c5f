"""attention_heads never passes key_mask on (padded keys get weight like real ones; only a causal mask over right-padded rows hides them anyway); the blocks inherit it wherever there is padding.

answers: solution
loses: test_attention_heads_example test_attention_heads_cross test_attention_heads_gradients test_encoder_block_padding test_encoder_block_gradients test_decoder_block_masks test_decoder_block_gradients test_transformer_encode_torch test_transformer_encode_gradients
hint: pass key_mask on to scaled_dot_product_attention
hint: builds on your attention_heads
"""
# %% attention_heads
def attention_heads(q, k, v, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias, num_heads, key_mask=None,
                    causal=False):
    B, Lq, D = q.shape
    size = D // num_heads
    W_q, W_k, W_v = in_proj_weight.chunk(3)
    b_q, b_k, b_v = in_proj_bias.chunk(3)

    def split_heads(x, W, b):
        L = x.shape[1]
        return (x @ W.T + b).view(B, L, num_heads, size).transpose(1, 2).reshape(B * num_heads, L, size)

    out, _ = scaled_dot_product_attention(split_heads(q, W_q, b_q), split_heads(k, W_k, b_k), split_heads(v, W_v, b_v),
                                          causal=causal)
    return out.view(B, num_heads, Lq, size).transpose(1, 2).reshape(B, Lq, D) @ out_proj_weight.T + out_proj_bias
