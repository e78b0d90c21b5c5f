"""Allows the skip from s-2 onto every label, also between two equal labels (so "a a" can be spelt "a a"); ctc_loss has the same bug and also averages the losses without dividing by the target lengths.

answers: solution
loses: test_ctc_alpha_worked_example test_ctc_alpha_brute_force test_ctc_alpha_stable test_ctc_loss_one_utterance test_ctc_loss_padding test_ctc_loss_reductions test_ctc_loss_concatenated test_ctc_loss_impossible_and_gradients
hint: never skip the blank between two EQUAL labels
hint: never skip the blank between two equal labels
"""
# %% ctc_alpha
def ctc_alpha(log_probs, target, blank=0):
    extended = [blank] + [x for label in target for x in (int(label), blank)]
    W = len(extended)
    emit = log_probs[:, extended]
    can_skip = torch.tensor([s >= 2 and extended[s] != blank for s in range(W)], device=log_probs.device)
    minus_inf = log_probs.new_full((2,), float("-inf"))
    alpha = torch.where(torch.arange(W, device=log_probs.device) < 2, emit[0], float("-inf"))
    rows = [alpha]
    for t in range(1, log_probs.shape[0]):
        one_back = torch.cat([minus_inf[:1], alpha])[:W]
        two_back = torch.where(can_skip, torch.cat([minus_inf, alpha])[:W], float("-inf"))
        alpha = emit[t] + logsumexp_safe(torch.stack([alpha, one_back, two_back]))
        rows.append(alpha)
    return torch.stack(rows)


# %% ctc_loss
def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean"):
    lengths = [int(n) for n in target_lengths]
    if targets.dim() == 1:
        rows = targets.split(lengths)
    else:
        rows = [targets[b, :n] for b, n in enumerate(lengths)]
    losses = []
    for b, row in enumerate(rows):
        alpha = ctc_alpha(log_probs[: int(input_lengths[b]), b], row.tolist(), blank)
        losses.append(-logsumexp_safe(alpha[-1, -2:] if len(row) else alpha[-1, -1:]))
    losses = torch.stack(losses)
    if reduction == "none":
        return losses
    if reduction == "sum":
        return losses.sum()
    return losses.mean()
