"""reverse_padded overwrites the padding with zeros; bilstm_encode forgets to reverse the backward outputs back (o_i = [u_i, v_i]).
bilstm_encode's tests point at reverse_padded first; their own hint comes once reverse_padded passes.

answers: solution
loses: test_reverse_padded_example test_reverse_padded_edges test_reverse_padded_gradients test_bilstm_encode_alignment test_bilstm_encode_pytorch test_bilstm_encode_gradients
hint: do not overwrite it with zeros
hint: then x[b, l:] unchanged
hint: builds on your reverse_padded
"""
# %% reverse_padded
def reverse_padded(x, lengths):
    out = torch.zeros_like(x)
    for b in range(x.shape[0]):
        l = int(lengths[b])
        out[b, :l] = x[b, :l].flip(0)
    return out


# %% bilstm_encode
def bilstm_encode(x, lengths, params_fwd, params_bwd):
    mask = torch.arange(x.shape[1], device=x.device) < lengths.to(x.device).unsqueeze(1)
    u, (u_last, _) = lstm_encode(x, mask, params_fwd)
    v, (v_last, _) = lstm_encode(reverse_padded(x, lengths), mask, params_bwd)
    return torch.cat([u, v], dim=-1), torch.cat([u_last, v_last], dim=-1)  # v is still in reading order
