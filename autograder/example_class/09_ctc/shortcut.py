"""Calls F.ctc_loss, the forbidden shortcut, for the loss; ctc_alpha forgets the first label's start state at t = 1.

answers: solution
loses: test_ctc_alpha_worked_example test_ctc_alpha_brute_force test_ctc_alpha_stable test_ctc_loss_one_utterance test_ctc_loss_padding test_ctc_loss_reductions test_ctc_loss_concatenated test_ctc_loss_impossible_and_gradients
hint: alpha_1 is nonzero only on the first two states
"""
# %% ctc_alpha
def ctc_alpha(log_probs, target, blank=0):
    extended = [blank] + [x for label in target for x in (int(label), blank)]
    W = len(extended)
    emit = log_probs[:, extended]
    can_skip = torch.tensor([s >= 2 and extended[s] != blank and extended[s] != extended[s - 2] for s in range(W)],
                            device=log_probs.device)
    minus_inf = log_probs.new_full((2,), float("-inf"))
    alpha = torch.where(torch.arange(W, device=log_probs.device) < 1, emit[0], float("-inf"))  # only the blank
    rows = [alpha]
    for t in range(1, log_probs.shape[0]):
        one_back = torch.cat([minus_inf[:1], alpha])[:W]
        two_back = torch.where(can_skip, torch.cat([minus_inf, alpha])[:W], float("-inf"))
        alpha = emit[t] + logsumexp_safe(torch.stack([alpha, one_back, two_back]))
        rows.append(alpha)
    return torch.stack(rows)


# %% ctc_loss
def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean"):
    return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=blank, reduction=reduction)
