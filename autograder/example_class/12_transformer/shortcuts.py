"""Forbidden shortcuts: F.linear in position_wise_ffn, PyTorch's own encoder layer for encoder_block (which transformer_encode then runs too) and decoder layer for decoder_block.

answers: solution
loses: test_ffn_example test_ffn_positions test_encoder_block_torch test_encoder_block_padding test_encoder_block_gradients test_decoder_block_torch test_decoder_block_masks test_decoder_block_edges test_decoder_block_gradients test_transformer_encode_torch test_transformer_encode_gradients
hint: builds on your position_wise_ffn
"""
# %% position_wise_ffn
def position_wise_ffn(x, W1, b1, W2, b2):
    return F.linear(torch.relu(F.linear(x, W1, b1)), W2, b2)


# %% encoder_block
def encoder_block(x, mask, params, num_heads):
    D, F_ = x.shape[-1], params["linear1.weight"].shape[0]
    layer = nn.TransformerEncoderLayer(D, num_heads, F_, dropout=0.0, batch_first=True).to(x.dtype).to(x.device)
    layer.load_state_dict(params)
    return layer(x, src_key_padding_mask=~mask)


# %% decoder_block
def decoder_block(y, memory, y_mask, memory_mask, params, num_heads):
    D, F_ = y.shape[-1], params["linear1.weight"].shape[0]
    layer = nn.TransformerDecoderLayer(D, num_heads, F_, dropout=0.0, batch_first=True).to(y.dtype).to(y.device)
    layer.load_state_dict(params)
    future = torch.ones(y.shape[1], y.shape[1], dtype=torch.bool, device=y.device).triu(1)
    return layer(y, memory, tgt_mask=future, tgt_key_padding_mask=~y_mask, memory_key_padding_mask=~memory_mask)
