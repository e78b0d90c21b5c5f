"""sequence_nll takes log(softmax) (log 0 at +-1000); temperature_softmax forgets the maximum (overflow at small T);
clip_grad_norm scales the caller's tensors in place.

answers: solution
loses: test_sequence_nll_stable test_temperature_softmax_stable test_clip_grad_norm_example test_clip_grad_norm_global
hint: do not change what it is given in place
hint: not log(softmax(z))
hint: subtract the maximum of the SCALED logits
"""
# %% sequence_nll
def sequence_nll(logits, targets, mask):
    probs = torch.exp(logits - logits.amax(dim=-1, keepdim=True))
    probs = probs / probs.sum(dim=-1, keepdim=True)
    gold = -torch.log(probs.gather(-1, torch.where(mask, targets, 0).unsqueeze(-1)).squeeze(-1))  # -log 0 = inf
    return (gold * mask).sum() / mask.sum()


# %% clip_grad_norm
def clip_grad_norm(grads, tau):
    total = torch.sqrt(sum((g ** 2).sum() for g in grads))
    scale = tau / max(tau, float(total))
    return [g.mul_(scale) for g in grads]  # in place


# %% temperature_softmax
def temperature_softmax(logits, temperature):
    e = torch.exp(logits / temperature)  # overflows for small T
    return e / e.sum(dim=-1, keepdim=True)
