"""label_smoothed_nll spreads eps over the V - 1 wrong tokens only, leaving the target out of the smoothing term (the notebook's target distribution spreads it over all V tokens, the target included).

answers: solution
loses: test_label_smoothed_nll
hint: the target included
"""
# %% label_smoothed_nll
def label_smoothed_nll(logits, targets, mask, epsilon):
    log_p = torch.log_softmax(logits, dim=-1)
    safe = torch.where(mask, targets, torch.zeros_like(targets))
    nll = -log_p.gather(-1, safe.unsqueeze(-1)).squeeze(-1)
    others = (-log_p.sum(dim=-1) - nll) / (logits.shape[-1] - 1)
    smoothed = (1 - epsilon) * nll + epsilon * others
    return torch.where(mask, smoothed, torch.zeros_like(smoothed)).sum() / mask.sum()
