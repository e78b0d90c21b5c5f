"""Alternative correct answers: index lists, one sentence at a time without padding, a recursive stack.

answers: solution
loses: nothing
"""
# %% reverse_padded
def reverse_padded(x, lengths):
    out = x.clone()
    for b, l in enumerate(lengths.tolist()):
        out[b, :l] = x[b, list(range(l - 1, -1, -1))]
    return out


# %% bilstm_encode
def bilstm_encode(x, lengths, params_fwd, params_bwd):
    B, L, _ = x.shape
    K = params_fwd[1].shape[1]
    rows, summaries = [], []
    for b, l in enumerate(lengths.tolist()):
        sentence = x[b:b + 1, :l]
        real = torch.ones(1, l, dtype=torch.bool, device=x.device)
        u, (u_l, _) = lstm_encode(sentence, real, params_fwd)
        v, (v_l, _) = lstm_encode(reverse_padded(sentence, torch.tensor([l])), real, params_bwd)
        o = torch.cat([u, reverse_padded(v, torch.tensor([l]))], dim=-1)[0]
        rows.append(torch.cat([o, x.new_zeros(L - l, 2 * K)]))
        summaries.append(torch.cat([u_l[0], v_l[0]]))
    return torch.stack(rows), torch.stack(summaries)


# %% stack
def stack(x, layers, residual):
    if not layers:
        return x
    out = layers[0](x)
    return stack(out + x if residual else out, layers[1:], residual)
