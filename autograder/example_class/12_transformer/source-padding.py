"""decoder_block's cross-attention ignores memory_mask (padded source positions get weight); transformer_encode forgets to scale the embeddings by sqrt(D).

answers: solution
loses: test_decoder_block_masks test_decoder_block_gradients test_transformer_encode_inputs test_transformer_encode_torch test_transformer_encode_gradients
hint: each block reads the previous block's output
hint: memory_mask is the cross-attention's key mask
hint: scale the looked-up rows by sqrt(D)
"""
# %% decoder_block
def decoder_block(y, memory, y_mask, memory_mask, params, num_heads):
    def attend(name, queries, keys_and_values, key_mask, causal):
        return attention_heads(queries, keys_and_values, keys_and_values, params[f"{name}.in_proj_weight"],
                               params[f"{name}.in_proj_bias"], params[f"{name}.out_proj.weight"],
                               params[f"{name}.out_proj.bias"], num_heads, key_mask, causal)

    a = add_and_norm(y, attend("self_attn", y, y, y_mask, True), params["norm1.weight"], params["norm1.bias"])
    c = add_and_norm(a, attend("multihead_attn", a, memory, None, False), params["norm2.weight"], params["norm2.bias"])
    transformed = position_wise_ffn(c, params["linear1.weight"], params["linear1.bias"], params["linear2.weight"],
                                    params["linear2.bias"])
    return add_and_norm(c, transformed, params["norm3.weight"], params["norm3.bias"])


# %% transformer_encode
def transformer_encode(ids, mask, embedding, blocks, num_heads):
    z = embedding[ids] + sinusoidal_pe(ids.shape[1], embedding.shape[1]).to(embedding.dtype).to(embedding.device)
    for params in blocks:
        z = encoder_block(z, mask, params, num_heads)
    return z
