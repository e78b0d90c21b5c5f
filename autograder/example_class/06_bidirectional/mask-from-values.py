"""bilstm_encode guesses the padding from zero input vectors instead of using lengths.

answers: solution
loses: test_bilstm_encode_shapes test_bilstm_encode_summary test_bilstm_encode_pytorch test_bilstm_encode_gradients
hint: take the mask from lengths, not from the values of x
"""
# %% bilstm_encode
def bilstm_encode(x, lengths, params_fwd, params_bwd):
    mask = x.abs().sum(dim=-1) > 0  # padding is whatever lengths says, not zero vectors
    u, (u_last, _) = lstm_encode(x, mask, params_fwd)
    v_read, (v_last, _) = lstm_encode(reverse_padded(x, lengths), reverse_padded(mask.unsqueeze(-1), lengths)[..., 0],
                                      params_bwd)
    return torch.cat([u, reverse_padded(v_read, lengths)], dim=-1), torch.cat([u_last, v_last], dim=-1)
