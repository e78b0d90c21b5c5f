"""position_wise_ffn forgets the ReLU between its two linear maps (two linear maps make one: no feature is switched off), which every block then inherits.

answers: solution
loses: test_ffn_example test_ffn_positions test_encoder_block_torch test_encoder_block_padding test_encoder_block_gradients test_decoder_block_torch test_decoder_block_masks test_decoder_block_edges test_decoder_block_gradients test_transformer_encode_torch test_transformer_encode_gradients
hint: ReLU(x W1^T + b1) first
hint: builds on your position_wise_ffn
"""
# %% position_wise_ffn
def position_wise_ffn(x, W1, b1, W2, b2):
    return (x @ W1.T + b1) @ W2.T + b2
