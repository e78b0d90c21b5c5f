"""reverse_padded rebuilds the tensor from Python lists (no gradient); z takes the backward half at the last real position (v_1, not v_l); residual connections add x instead of each layer's input. bilstm_encode's tests point at
reverse_padded first (its hint on the summary's position comes once reverse_padded passes).

answers: solution
loses: test_reverse_padded_gradients test_bilstm_encode_summary test_bilstm_encode_pytorch test_bilstm_encode_gradients test_stack_residual test_stack_edges
hint: build the result from x with torch operations, not .tolist()
hint: each layer adds its own input
hint: builds on your reverse_padded
"""
# %% reverse_padded
def reverse_padded(x, lengths):
    rows = x.tolist()
    for b, l in enumerate(lengths.tolist()):
        rows[b][:l] = rows[b][:l][::-1]
    return torch.tensor(rows, dtype=x.dtype, device=x.device)


# %% bilstm_encode
def bilstm_encode(x, lengths, params_fwd, params_bwd):
    mask = torch.arange(x.shape[1], device=x.device) < lengths.to(x.device).unsqueeze(1)
    u, (u_last, _) = lstm_encode(x, mask, params_fwd)
    v_read, _ = lstm_encode(reverse_padded(x, lengths), mask, params_bwd)
    o = torch.cat([u, reverse_padded(v_read, lengths)], dim=-1)
    last = o[torch.arange(x.shape[0]), lengths - 1]  # [u_l, v_1]: the backward half here has read one token
    return o, last


# %% stack
def stack(x, layers, residual):
    h = x
    for layer in layers:
        h = layer(h) + x if residual else layer(h)
    return h
