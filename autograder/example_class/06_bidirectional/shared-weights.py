"""bilstm_encode runs the backward LSTM with the forward parameters; stack adds the residual in place, changing the caller's x.

answers: solution
loses: test_bilstm_encode_alignment test_bilstm_encode_summary test_bilstm_encode_pytorch test_bilstm_encode_gradients test_stack_residual test_stack_edges
hint: run it with params_bwd
hint: do not change what it is given in place
"""
# %% bilstm_encode
def bilstm_encode(x, lengths, params_fwd, params_bwd):
    mask = torch.arange(x.shape[1], device=x.device) < lengths.to(x.device).unsqueeze(1)
    u, (u_last, _) = lstm_encode(x, mask, params_fwd)
    v_read, (v_last, _) = lstm_encode(reverse_padded(x, lengths), mask, params_fwd)  # should be params_bwd
    return torch.cat([u, reverse_padded(v_read, lengths)], dim=-1), torch.cat([u_last, v_last], dim=-1)


# %% stack
def stack(x, layers, residual):
    h = x
    for layer in layers:
        if residual:
            h += layer(h)  # in place: on the first layer h is the caller's x
        else:
            h = layer(h)
    return h
