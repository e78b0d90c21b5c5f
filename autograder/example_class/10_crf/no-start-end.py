"""Eq. 4.85 taken literally: no start or end scores in crf_score, no end in the forward algorithm nor in Viterbi.

answers: solution
loses: test_crf_score_example test_crf_score_edges test_crf_log_partition_brute_force test_crf_log_partition_padding test_crf_log_partition_long test_crf_log_partition_gradients test_crf_nll_example test_crf_nll_batch test_crf_nll_gradients test_crf_viterbi_example test_crf_viterbi_brute_force
hint: add start[y_1] for the first tag
hint: start scores the first tag (add it to alpha_1)
hint: add end to the last position's scores
hint: builds on your crf_log_partition
"""
# %% crf_score
def crf_score(emissions, tags, transitions, start, end):
    tags = torch.as_tensor(tags, device=emissions.device)
    positions = torch.arange(len(tags), device=emissions.device)
    return emissions[positions, tags].sum() + transitions[tags[:-1], tags[1:]].sum()


# %% crf_log_partition
def crf_log_partition(emissions, mask, transitions, start, end):
    alpha = start + emissions[:, 0]
    for i in range(1, emissions.shape[1]):
        step = torch.logsumexp(alpha.unsqueeze(2) + transitions, dim=1) + emissions[:, i]
        alpha = torch.where(mask[:, i].unsqueeze(1), step, alpha)
    return torch.logsumexp(alpha, dim=1)  # end forgotten


# %% crf_viterbi
def crf_viterbi(emissions, transitions, start, end):
    delta = start + emissions[0]
    back = []
    for i in range(1, emissions.shape[0]):
        delta, best_prev = (delta.unsqueeze(1) + transitions).max(dim=0)
        delta = delta + emissions[i]
        back.append(best_prev)
    score, last = delta.max(dim=0)  # end forgotten
    tags = [int(last)]
    for best_prev in reversed(back):
        tags.append(int(best_prev[tags[-1]]))
    return tags[::-1], float(score)
