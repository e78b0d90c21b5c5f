"""label_smoothed_nll adds eps times the sum of -log p_v over the V tokens, not their mean, so the smoothing term grows with the vocabulary.

answers: solution
loses: test_label_smoothed_nll
hint: eps times the mean over all V tokens
"""
# %% label_smoothed_nll
def label_smoothed_nll(logits, targets, mask, epsilon):
    log_p = torch.log_softmax(logits, dim=-1)
    safe = torch.where(mask, targets, torch.zeros_like(targets))
    nll = -log_p.gather(-1, safe.unsqueeze(-1)).squeeze(-1)
    smoothed = (1 - epsilon) * nll - epsilon * log_p.sum(dim=-1)
    return torch.where(mask, smoothed, torch.zeros_like(smoothed)).sum() / mask.sum()
