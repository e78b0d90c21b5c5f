"""decoder_block's self-attention is not causal (every position sees the later ones, the answers it should predict); encoder_block normalises both sums with norm1.

answers: solution
loses: test_decoder_block_torch test_decoder_block_masks test_decoder_block_edges test_decoder_block_gradients test_encoder_block_torch test_encoder_block_padding test_encoder_block_gradients test_transformer_encode_torch test_transformer_encode_gradients
hint: mask is the self-attention's key mask
hint: memory_mask is the cross-attention's key mask
hint: self_attn with causal=True and norm1
hint: the cross-attention's output has the decoder's length
hint: the residual is added before each normalisation (post-norm)
hint: builds on your encoder_block
"""
# %% encoder_block
def encoder_block(x, mask, params, num_heads):
    attended = attention_heads(x, x, x, params["self_attn.in_proj_weight"], params["self_attn.in_proj_bias"],
                               params["self_attn.out_proj.weight"], params["self_attn.out_proj.bias"], num_heads, mask)
    h = add_and_norm(x, attended, params["norm1.weight"], params["norm1.bias"])
    transformed = position_wise_ffn(h, params["linear1.weight"], params["linear1.bias"], params["linear2.weight"],
                                    params["linear2.bias"])
    return add_and_norm(h, transformed, params["norm1.weight"], params["norm1.bias"])


# %% decoder_block
def decoder_block(y, memory, y_mask, memory_mask, params, num_heads):
    def attend(name, queries, keys_and_values, key_mask):
        return attention_heads(queries, keys_and_values, keys_and_values, params[f"{name}.in_proj_weight"],
                               params[f"{name}.in_proj_bias"], params[f"{name}.out_proj.weight"],
                               params[f"{name}.out_proj.bias"], num_heads, key_mask)

    a = add_and_norm(y, attend("self_attn", y, y, y_mask), params["norm1.weight"], params["norm1.bias"])
    c = add_and_norm(a, attend("multihead_attn", a, memory, memory_mask), params["norm2.weight"], params["norm2.bias"])
    transformed = position_wise_ffn(c, params["linear1.weight"], params["linear1.bias"], params["linear2.weight"],
                                    params["linear2.bias"])
    return add_and_norm(c, transformed, params["norm3.weight"], params["norm3.bias"])
