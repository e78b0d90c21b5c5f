"""Runs the forward recursion on probabilities and takes the log at the end (underflows on long inputs); ctc_loss ignores input_lengths (every utterance uses all T frames).

answers: solution
loses: test_ctc_alpha_stable test_ctc_loss_padding test_ctc_loss_concatenated test_ctc_loss_impossible_and_gradients
hint: stay in log space
hint: utterance b ends at frame input_lengths[b] - 1
"""
# %% ctc_alpha
def ctc_alpha(log_probs, target, blank=0):
    extended = [blank] + [x for label in target for x in (int(label), blank)]
    W = len(extended)
    emit = log_probs[:, extended].exp()
    can_skip = torch.tensor([s >= 2 and extended[s] != blank and extended[s] != extended[s - 2] for s in range(W)],
                            device=log_probs.device)
    zeros = emit.new_zeros(2)
    alpha = torch.where(torch.arange(W, device=log_probs.device) < 2, emit[0], 0.0)
    rows = [alpha]
    for t in range(1, log_probs.shape[0]):
        one_back = torch.cat([zeros[:1], alpha])[:W]
        two_back = torch.where(can_skip, torch.cat([zeros, alpha])[:W], 0.0)
        alpha = emit[t] * (alpha + one_back + two_back)
        rows.append(alpha)
    return torch.stack(rows).log()


# %% ctc_loss
def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean"):
    T, B, _ = log_probs.shape
    target_lengths = torch.as_tensor(target_lengths, device=log_probs.device).long()
    input_lengths = torch.full((B,), T, device=log_probs.device)  # every utterance as long as the longest
    if targets.dim() == 1:
        rows = targets.split(target_lengths.tolist())
    else:
        rows = [targets[b, :n] for b, n in enumerate(target_lengths.tolist())]
    W = 2 * int(target_lengths.max()) + 1
    extended = torch.full((B, W), blank, dtype=torch.long, device=log_probs.device)
    for b, row in enumerate(rows):
        extended[b, 1 : 2 * len(row) : 2] = row
    two_before = torch.cat([extended.new_full((B, 2), blank), extended], dim=1)[:, :W]
    can_skip = (extended != blank) & (extended != two_before)
    emit = log_probs.gather(2, extended.unsqueeze(0).expand(T, B, W))
    minus_inf = log_probs.new_full((B, 2), float("-inf"))
    alpha = torch.where(torch.arange(W, device=log_probs.device) < 2, emit[0], float("-inf"))
    for t in range(1, T):
        one_back = torch.cat([minus_inf[:, :1], alpha], dim=1)[:, :W]
        two_back = torch.where(can_skip, torch.cat([minus_inf, alpha], dim=1)[:, :W], float("-inf"))
        alpha = emit[t] + logsumexp_safe(torch.stack([alpha, one_back, two_back]))
    last_blank = alpha.gather(1, (2 * target_lengths).unsqueeze(1)).squeeze(1)
    last_label = alpha.gather(1, (2 * target_lengths - 1).clamp(min=0).unsqueeze(1)).squeeze(1)
    last_label = torch.where(target_lengths > 0, last_label, float("-inf"))
    losses = -logsumexp_safe(torch.stack([last_blank, last_label]))
    if reduction == "none":
        return losses
    if reduction == "sum":
        return losses.sum()
    return (losses / target_lengths.clamp(min=1).to(losses.dtype)).mean()
