"""transformer_encode runs the blocks last first and counts positions from 1, not 0.

answers: solution
loses: test_transformer_encode_inputs test_transformer_encode_torch test_transformer_encode_gradients
hint: each block reads the previous block's output
hint: scale the looked-up rows by sqrt(D)
"""
# %% transformer_encode
def transformer_encode(ids, mask, embedding, blocks, num_heads):
    L, D = ids.shape[1], embedding.shape[1]
    z = embedding[ids] * math.sqrt(D) + sinusoidal_pe(L + 1, D)[1:].to(embedding.dtype).to(embedding.device)
    for params in reversed(blocks):
        z = encoder_block(z, mask, params, num_heads)
    return z
