"""rnn_encode detaches u0 (no gradient); sequence_nll averages sentence means; perplexity forgets exp;
clip_grad_norm always rescales to norm tau (0/0 for zero gradients); temperature_softmax multiplies by T.

answers: solution
loses: test_rnn_encode_gradients test_sequence_nll_example test_sequence_nll_padding test_sequence_nll_stable test_perplexity test_clip_grad_norm_example test_clip_grad_norm_global test_temperature_softmax_example test_temperature_softmax_stable
hint: is not changed (scale by tau / max(tau, norm))
hint: a zero gradient stays 0
hint: N = number of real tokens (3 here)
hint: sum the 7 real positions only
hint: divide the logits by the temperature
hint: builds on your sequence_nll
"""
# %% rnn_encode
def rnn_encode(e, mask, u0, R, W, b=None):
    u = u0.detach().to(e.dtype).expand(e.shape[0], -1)  # u0 is a parameter: it needs its gradient
    states = []
    for i in range(e.shape[1]):
        real = mask[:, i].unsqueeze(-1)
        new = rnn_step(u, e[:, i], R, W, b)
        u = torch.where(real, new, u)
        states.append(torch.where(real, new, torch.zeros_like(new)))
    return torch.stack(states, dim=1), u


# %% sequence_nll
def sequence_nll(logits, targets, mask):
    log_z = torch.logsumexp(logits, dim=-1)
    gold = logits.gather(-1, torch.where(mask, targets, 0).unsqueeze(-1)).squeeze(-1)
    per_sentence = ((log_z - gold) * mask).sum(dim=1) / mask.sum(dim=1)
    return per_sentence.mean()  # mean of sentence means


# %% perplexity
def perplexity(logits, targets, mask):
    return sequence_nll(logits, targets, mask)  # forgot exp


# %% clip_grad_norm
def clip_grad_norm(grads, tau):
    total = torch.sqrt(sum((g ** 2).sum() for g in grads))
    return [g * tau / total for g in grads]  # also when the norm is below tau


# %% temperature_softmax
def temperature_softmax(logits, temperature):
    scaled = logits * temperature
    e = torch.exp(scaled - scaled.amax(dim=-1, keepdim=True))
    return e / e.sum(dim=-1, keepdim=True)
