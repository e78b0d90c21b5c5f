"""Forbidden shortcut: label_smoothed_nll is F.cross_entropy with label_smoothing, the one call the syllabus forbids (plain cross-entropy is allowed: see plain-cross-entropy.py).

answers: solution
loses: test_label_smoothed_nll
hint: none
"""
# %% label_smoothed_nll
def label_smoothed_nll(logits, targets, mask, epsilon):
    return F.cross_entropy(logits[mask], targets[mask], label_smoothing=epsilon)
