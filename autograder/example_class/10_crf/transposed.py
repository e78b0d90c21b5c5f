"""Transition matrices read as [cur, prev]: the HMM, crf_score and the forward algorithm sum or maximise over the wrong axis.

answers: solution
loses: test_hmm_viterbi_example test_hmm_viterbi_edges test_crf_score_example test_crf_score_edges test_crf_log_partition_brute_force test_crf_log_partition_padding test_crf_log_partition_long test_crf_log_partition_gradients test_crf_nll_example test_crf_nll_batch test_crf_nll_gradients
hint: the row is the previous state
hint: the row is the previous tag
hint: the log-sum-exp runs over the previous tag
hint: builds on your crf_log_partition
"""
# %% hmm_viterbi
def hmm_viterbi(log_init, log_trans, log_emit):
    delta = log_init + log_emit[0]
    back = []
    for i in range(1, log_emit.shape[0]):
        delta, best_prev = (delta.unsqueeze(1) + log_trans.T).max(dim=0)  # log_trans[cur, prev]
        delta = delta + log_emit[i]
        back.append(best_prev)
    log_prob, last = delta.max(dim=0)
    path = [int(last)]
    for best_prev in reversed(back):
        path.append(int(best_prev[path[-1]]))
    return path[::-1], float(log_prob)


# %% crf_score
def crf_score(emissions, tags, transitions, start, end):
    tags = torch.as_tensor(tags, device=emissions.device)
    positions = torch.arange(len(tags), device=emissions.device)
    return (start[tags[0]] + emissions[positions, tags].sum() + transitions[tags[1:], tags[:-1]].sum()
            + end[tags[-1]])


# %% crf_log_partition
def crf_log_partition(emissions, mask, transitions, start, end):
    alpha = start + emissions[:, 0]
    for i in range(1, emissions.shape[1]):
        step = torch.logsumexp(alpha.unsqueeze(1) + transitions, dim=2) + emissions[:, i]  # sums over cur
        alpha = torch.where(mask[:, i].unsqueeze(1), step, alpha)
    return torch.logsumexp(alpha + end, dim=1)
