"""attention_heads scales every head's scores by sqrt(D) instead of sqrt(D / num_heads), the size of one head's vectors; the blocks inherit it.

answers: solution
loses: test_attention_heads_example test_attention_heads_cross test_attention_heads_causal test_attention_heads_gradients test_encoder_block_torch test_encoder_block_padding test_encoder_block_gradients test_decoder_block_torch test_decoder_block_masks test_decoder_block_edges test_decoder_block_gradients test_transformer_encode_torch test_transformer_encode_gradients
hint: head i uses columns
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
        return (x @ W.T + b).view(B, x.shape[1], num_heads, size).transpose(1, 2)

    Q, K, V = split_heads(q, W_q, b_q), split_heads(k, W_k, b_k), split_heads(v, W_v, b_v)
    scores = Q @ K.transpose(-2, -1) / math.sqrt(D)
    allowed = torch.ones(Lq, K.shape[2], dtype=torch.bool, device=q.device)
    if causal:
        allowed = allowed.tril()
    if key_mask is not None:
        allowed = allowed & key_mask[:, None, None, :]
    out = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1) @ V
    return out.transpose(1, 2).reshape(B, Lq, D) @ out_proj_weight.T + out_proj_bias
