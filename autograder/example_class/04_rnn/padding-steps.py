"""rnn_encode runs the step on padding too (outputs zeroed, but the state changes); clip_grad_norm clips every
tensor by its own norm.

answers: solution
loses: test_rnn_encode_example test_rnn_encode_padding test_rnn_encode_gradients test_clip_grad_norm_example test_clip_grad_norm_global
hint: divide by the norm of ALL gradients together
hint: each tensor alone has norm 1
hint: last is the state after each row's last REAL token
hint: keep the previous state
hint: padding must not influence anything
"""
# %% rnn_encode
def rnn_encode(e, mask, u0, R, W, b=None):
    u = u0.to(e.dtype).expand(e.shape[0], -1)
    states = []
    for i in range(e.shape[1]):
        u = rnn_step(u, e[:, i], R, W, b)  # steps on padding
        states.append(u * mask[:, i].unsqueeze(-1))
    return torch.stack(states, dim=1), u


# %% clip_grad_norm
def clip_grad_norm(grads, tau):
    return [g * (tau / max(tau, float(g.norm()))) for g in grads]  # per tensor, not global
