"""Alternative correct answers: a loop over rows with flip, flip with a flipped mask, functools.reduce.

answers: solution
loses: nothing
"""
# %% reverse_padded
def reverse_padded(x, lengths):
    rows = []
    for b in range(x.shape[0]):
        l = int(lengths[b])
        rows.append(torch.cat([x[b, :l].flip(0), x[b, l:]]))
    return torch.stack(rows)


# %% bilstm_encode
def bilstm_encode(x, lengths, params_fwd, params_bwd):
    # flipping whole rows is fine when the mask is flipped with them: the zero state waits through the padding
    mask = torch.arange(x.shape[1], device=x.device)[None, :] < lengths.to(x.device)[:, None]
    u, (u_last, _) = lstm_encode(x, mask, params_fwd)
    v_flipped, (v_last, _) = lstm_encode(x.flip(1), mask.flip(1), params_bwd)
    return torch.cat([u, v_flipped.flip(1)], dim=2), torch.cat([u_last, v_last], dim=1)


# %% stack
import functools


def stack(x, layers, residual):
    if residual:
        return functools.reduce(lambda h, layer: h + layer(h), layers, x)
    return functools.reduce(lambda h, layer: layer(h), layers, x)
