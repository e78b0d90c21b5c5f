"""Uses torch.logsumexp for the recursion: right values, but nan gradients through unreachable (all -inf) states; ctc_loss handles only padded 2-D targets.

answers: solution
loses: test_ctc_alpha_stable test_ctc_loss_concatenated test_ctc_loss_impossible_and_gradients
hint: an all -inf log-sum-exp needs a gradient of 0
"""
# %% ctc_alpha
def ctc_alpha(log_probs, target, blank=0):
    extended = [blank] + [x for label in target for x in (int(label), blank)]
    W = len(extended)
    emit = log_probs[:, extended]
    can_skip = torch.tensor([s >= 2 and extended[s] != blank and extended[s] != extended[s - 2] for s in range(W)],
                            device=log_probs.device)
    minus_inf = log_probs.new_full((2,), float("-inf"))
    alpha = torch.where(torch.arange(W, device=log_probs.device) < 2, emit[0], float("-inf"))
    rows = [alpha]
    for t in range(1, log_probs.shape[0]):
        one_back = torch.cat([minus_inf[:1], alpha])[:W]
        two_back = torch.where(can_skip, torch.cat([minus_inf, alpha])[:W], float("-inf"))
        alpha = emit[t] + torch.logsumexp(torch.stack([alpha, one_back, two_back]), dim=0)
        rows.append(alpha)
    return torch.stack(rows)


# %% ctc_loss
def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean"):
    losses = []
    for b in range(log_probs.shape[1]):
        n = int(target_lengths[b])
        alpha = ctc_alpha(log_probs[: int(input_lengths[b]), b], targets[b, :n].tolist(), blank)
        losses.append(-torch.logsumexp(alpha[-1, -2:] if n else alpha[-1, -1:], dim=0))
    losses = torch.stack(losses)
    if reduction == "none":
        return losses
    if reduction == "sum":
        return losses.sum()
    return (losses / target_lengths.clamp(min=1).to(losses.dtype)).mean()
