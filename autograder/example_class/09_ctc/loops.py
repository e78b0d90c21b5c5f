"""Alternative correct answers: explicit loops, ctc_loss as a loop over the batch calling ctc_alpha.

answers: solution
loses: nothing
"""
# %% ctc_collapse
def ctc_collapse(labels, blank=0):
    out, previous = [], None
    for label in labels:
        if label != previous and label != blank:
            out.append(int(label))
        previous = label
    return out


# %% ctc_extend
def ctc_extend(target, blank=0):
    return [blank if s % 2 == 0 else int(target[s // 2]) for s in range(2 * len(target) + 1)]


# %% ctc_alpha
def ctc_alpha(log_probs, target, blank=0):
    ext = ctc_extend(target, blank)
    T, W = log_probs.shape[0], len(ext)
    minus_inf = log_probs.new_tensor(float("-inf"))
    rows = [torch.stack([log_probs[0, ext[s]] if s < 2 else minus_inf for s in range(W)])]
    for t in range(1, T):
        prev, row = rows[-1], []
        for s in range(W):
            terms = [prev[s]]
            if s >= 1:
                terms.append(prev[s - 1])
            if s >= 2 and ext[s] != blank and ext[s] != ext[s - 2]:
                terms.append(prev[s - 2])
            row.append(log_probs[t, ext[s]] + logsumexp_safe(torch.stack(terms)))
        rows.append(torch.stack(row))
    return torch.stack(rows)


# %% ctc_loss
def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean"):
    lengths = [int(n) for n in target_lengths]
    if targets.dim() == 1:
        starts = [sum(lengths[:b]) for b in range(len(lengths))]
        rows = [targets[s : s + n].tolist() for s, n in zip(starts, lengths)]
    else:
        rows = [targets[b, :n].tolist() for b, n in enumerate(lengths)]
    losses = []
    for b, row in enumerate(rows):
        alpha = ctc_alpha(log_probs[: int(input_lengths[b]), b], row, blank)
        losses.append(-logsumexp_safe(alpha[-1, -2:] if row else alpha[-1, -1:]))
    losses = torch.stack(losses)
    if reduction == "none":
        return losses
    if reduction == "sum":
        return losses.sum()
    return torch.stack([loss / max(n, 1) for loss, n in zip(losses, lengths)]).mean()


# %% ctc_greedy_decode
def ctc_greedy_decode(log_probs, blank=0):
    best = [max(range(log_probs.shape[1]), key=lambda c: float(frame[c])) for frame in log_probs]
    return ctc_collapse(best, blank)
