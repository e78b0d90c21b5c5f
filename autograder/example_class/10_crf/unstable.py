"""Probability space and sums: exp/log in the forward algorithm (overflows), a float from crf_score, the batch NLL summed, not averaged.

answers: solution
loses: test_crf_score_example test_crf_score_edges test_crf_log_partition_long test_crf_nll_batch test_crf_nll_gradients
hint: stay in log space
hint: not a Python number
hint: builds on your crf_log_partition
"""
# %% crf_score
def crf_score(emissions, tags, transitions, start, end):
    tags = [int(t) for t in tags]
    score = float(start[tags[0]]) + float(end[tags[-1]])
    for i, tag in enumerate(tags):
        score += float(emissions[i, tag])
        if i > 0:
            score += float(transitions[tags[i - 1], tag])
    return score


# %% crf_log_partition
def crf_log_partition(emissions, mask, transitions, start, end):
    alpha = torch.exp(start + emissions[:, 0])  # probabilities, not log-probabilities
    for i in range(1, emissions.shape[1]):
        step = (alpha @ torch.exp(transitions)) * torch.exp(emissions[:, i])
        alpha = torch.where(mask[:, i].unsqueeze(1), step, alpha)
    return torch.log((alpha * torch.exp(end)).sum(dim=1))


# %% crf_nll
def crf_nll(emissions, tags, mask, transitions, start, end):
    log_z = crf_log_partition(emissions, mask, transitions, start, end)
    real = mask.to(emissions.dtype)
    emitted = (emissions.gather(2, tags.unsqueeze(2)).squeeze(2) * real).sum(1)
    moved = (transitions[tags[:, :-1], tags[:, 1:]] * real[:, 1:]).sum(1)
    last = tags.gather(1, (mask.sum(1) - 1).unsqueeze(1)).squeeze(1)
    gold = start[tags[:, 0]] + emitted + moved + end[last]
    return (log_z - gold).sum()  # summed over the batch
