"""Alternative correct answers: a bias folded into a concatenated matrix, an encoder that indexes each row's last
output by its length, one-hot cross-entropy, a per-tensor loop for the global norm, softmax through its own
log-sum-exp.

answers: solution
loses: nothing
"""
# %% rnn_step
def rnn_step(u_prev, e, R, W, b=None):
    both = torch.cat([u_prev, e], dim=-1)
    weights = torch.cat([R, W], dim=1)
    pre = both @ weights.T
    return torch.tanh(pre if b is None else pre + b)


# %% rnn_encode
def rnn_encode(e, mask, u0, R, W, b=None):
    B, L = mask.shape
    u = u0.to(e.dtype).unsqueeze(0).repeat(B, 1)
    outputs = []
    for i in range(L):
        new = rnn_step(u, e[:, i], R, W, b)
        keep = mask[:, i].to(e.dtype).unsqueeze(1)
        u = keep * new + (1 - keep) * u
        outputs.append(keep * new)
    states = torch.stack(outputs, dim=1)
    last = states[torch.arange(B, device=mask.device), mask.sum(dim=1) - 1]  # the output at each row's last real token
    return states, last


# %% lm_pairs
def lm_pairs(ids, bos, eos):
    inputs, targets = [bos], []
    for token in ids:
        inputs.append(int(token))
        targets.append(int(token))
    targets.append(eos)
    return inputs, targets


# %% sequence_nll
def sequence_nll(logits, targets, mask):
    V = logits.shape[-1]
    real_logits, real_targets = logits[mask], targets[mask]
    top = real_logits.max(dim=-1, keepdim=True).values
    log_probs = real_logits - top - torch.log(torch.exp(real_logits - top).sum(dim=-1, keepdim=True))
    onehot = (real_targets.unsqueeze(-1) == torch.arange(V, device=logits.device)).to(logits.dtype)
    return -(onehot * log_probs).sum() / real_targets.numel()


# %% perplexity
def perplexity(logits, targets, mask):
    return sequence_nll(logits, targets, mask).exp()


# %% clip_grad_norm
def clip_grad_norm(grads, tau):
    squared = 0.0
    for g in grads:
        squared = squared + float((g.double() ** 2).sum())
    norm = squared ** 0.5
    factor = tau / max(tau, norm)
    return [g * factor for g in grads]


# %% temperature_softmax
def temperature_softmax(logits, temperature):
    z = logits / temperature
    top = z.max(dim=-1, keepdim=True).values
    log_z = top + torch.log(torch.exp(z - top).sum(dim=-1, keepdim=True))
    return torch.exp(z - log_z)
