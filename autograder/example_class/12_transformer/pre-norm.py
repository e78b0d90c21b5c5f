"""encoder_block and decoder_block normalise each sub-layer's input instead of the residual sum (pre-norm, norm_first=True), which transformer_encode inherits.

answers: solution
loses: test_encoder_block_torch test_encoder_block_padding test_encoder_block_gradients test_decoder_block_torch test_decoder_block_masks test_decoder_block_edges test_decoder_block_gradients test_transformer_encode_torch test_transformer_encode_gradients
hint: mask is the self-attention's key mask
hint: memory_mask is the cross-attention's key mask
hint: self_attn with causal=True and norm1
hint: the cross-attention's output has the decoder's length
hint: the residual is added before each normalisation (post-norm)
hint: builds on your encoder_block
"""
# %% encoder_block
def encoder_block(x, mask, params, num_heads):
    normed = layer_norm(x, params["norm1.weight"], params["norm1.bias"])
    h = x + attention_heads(normed, normed, normed, params["self_attn.in_proj_weight"], params["self_attn.in_proj_bias"],
                            params["self_attn.out_proj.weight"], params["self_attn.out_proj.bias"], num_heads, mask)
    normed = layer_norm(h, params["norm2.weight"], params["norm2.bias"])
    return h + position_wise_ffn(normed, params["linear1.weight"], params["linear1.bias"], params["linear2.weight"],
                                 params["linear2.bias"])


# %% decoder_block
def decoder_block(y, memory, y_mask, memory_mask, params, num_heads):
    def attend(name, queries, keys_and_values, key_mask, causal):
        return attention_heads(queries, keys_and_values, keys_and_values, params[f"{name}.in_proj_weight"],
                               params[f"{name}.in_proj_bias"], params[f"{name}.out_proj.weight"],
                               params[f"{name}.out_proj.bias"], num_heads, key_mask, causal)

    normed = layer_norm(y, params["norm1.weight"], params["norm1.bias"])
    a = y + attend("self_attn", normed, normed, y_mask, True)
    c = a + attend("multihead_attn", layer_norm(a, params["norm2.weight"], params["norm2.bias"]), memory, memory_mask, False)
    normed = layer_norm(c, params["norm3.weight"], params["norm3.bias"])
    return c + position_wise_ffn(normed, params["linear1.weight"], params["linear1.bias"], params["linear2.weight"],
                                 params["linear2.bias"])
