"""label_smoothed_nll averages over every position, padding included, instead of over the real tokens (its padded positions' losses count, and they divide by the padded length).

answers: solution
loses: test_label_smoothed_nll
hint: average over the real tokens only
"""
# %% label_smoothed_nll
def label_smoothed_nll(logits, targets, mask, epsilon):
    log_p = torch.log_softmax(logits, dim=-1)
    safe = torch.where(mask, targets, torch.zeros_like(targets))
    nll = -log_p.gather(-1, safe.unsqueeze(-1)).squeeze(-1)
    return ((1 - epsilon) * nll - epsilon * log_p.mean(dim=-1)).mean()
