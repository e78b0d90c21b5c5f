"""bilstm_encode flips whole rows with torch.flip but keeps the unflipped mask, so the backward LSTM reads padding; stack fails on an empty list of layers.

answers: solution
loses: test_bilstm_encode_shapes test_bilstm_encode_alignment test_bilstm_encode_summary test_bilstm_encode_pytorch test_bilstm_encode_gradients test_stack_edges
hint: reverse only each row's real prefix (reverse_padded), run the backward LSTM with the same mask
hint: with padding the backward LSTM starts at the last REAL token
"""
# %% bilstm_encode
def bilstm_encode(x, lengths, params_fwd, params_bwd):
    mask = torch.arange(x.shape[1], device=x.device) < lengths.to(x.device).unsqueeze(1)
    u, (u_last, _) = lstm_encode(x, mask, params_fwd)
    v_read, (v_last, _) = lstm_encode(torch.flip(x, [1]), mask, params_bwd)
    return torch.cat([u, torch.flip(v_read, [1])], dim=-1), torch.cat([u_last, v_last], dim=-1)


# %% stack
def stack(x, layers, residual):
    h = layers[0](x) + x if residual else layers[0](x)
    for layer in layers[1:]:
        h = layer(h) + h if residual else layer(h)
    return h
