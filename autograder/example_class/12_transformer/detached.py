"""transformer_encode looks the rows up in a detached copy of the table: the values are right, but no gradient reaches the embeddings.

answers: solution
loses: test_transformer_encode_gradients
hint: look the rows up with differentiable indexing
"""
# %% transformer_encode
def transformer_encode(ids, mask, embedding, blocks, num_heads):
    D = embedding.shape[1]
    z = embedding.detach()[ids] * math.sqrt(D) + sinusoidal_pe(ids.shape[1], D).to(embedding.dtype).to(embedding.device)
    for params in blocks:
        z = encoder_block(z, mask, params, num_heads)
    return z
