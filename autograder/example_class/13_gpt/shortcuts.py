"""Forbidden shortcut: gpt_block runs PyTorch's own pre-norm encoder layer with a causal mask.

answers: solution
loses: test_gpt_block_torch test_gpt_block_masks
hint: none
"""
# %% gpt_block
def gpt_block(x, mask, params, num_heads):
    D, F_ = x.shape[-1], params["linear1.weight"].shape[0]
    layer = nn.TransformerEncoderLayer(D, num_heads, F_, dropout=0.0, activation="gelu", batch_first=True,
                                       norm_first=True).to(x.dtype).to(x.device)
    layer.load_state_dict(params)
    future = torch.ones(x.shape[1], x.shape[1], dtype=torch.bool, device=x.device).triu(1)
    return layer(x, src_mask=future, src_key_padding_mask=~mask, is_causal=True)
