"""Greedy decoding: the HMM picks the best next state given the previous choice only; the CRF takes the per-word arg max.

answers: solution
loses: test_hmm_viterbi_example test_hmm_viterbi_edges test_crf_viterbi_example test_crf_viterbi_brute_force
hint: keep the best score of every state at every position
hint: keep one best score per tag at every position
"""
# %% hmm_viterbi
def hmm_viterbi(log_init, log_trans, log_emit):
    state = int((log_init + log_emit[0]).argmax())
    path, log_prob = [state], float(log_init[state] + log_emit[0, state])
    for i in range(1, log_emit.shape[0]):
        scores = log_trans[path[-1]] + log_emit[i]  # commits to the previous state
        path.append(int(scores.argmax()))
        log_prob += float(scores.max())
    return path, log_prob


# %% crf_viterbi
def crf_viterbi(emissions, transitions, start, end):
    tags = emissions.argmax(dim=1).tolist()  # each word on its own
    return tags, float(crf_score(emissions, tags, transitions, start, end))
