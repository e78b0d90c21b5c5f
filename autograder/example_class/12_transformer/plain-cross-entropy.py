"""Right answers written differently: label_smoothed_nll from plain F.cross_entropy (no label_smoothing, which is what the syllabus forbids) plus the smoothing term, and warmup_rate computed with NumPy, returning a numpy.float64 (a float).

answers: solution
loses: nothing
"""
# %% label_smoothed_nll
def label_smoothed_nll(logits, targets, mask, epsilon):
    real_logits, real_targets = logits[mask], targets[mask]
    uniform = -torch.log_softmax(real_logits, dim=-1).mean(dim=-1).mean()
    return (1 - epsilon) * F.cross_entropy(real_logits, real_targets) + epsilon * uniform


# %% warmup_rate
def warmup_rate(step, d_model, warmup):
    import numpy as np

    return np.float64(d_model) ** -0.5 * np.minimum(np.float64(step) ** -0.5, step * np.float64(warmup) ** -1.5)
