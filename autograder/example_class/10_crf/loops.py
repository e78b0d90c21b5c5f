"""Alternative correct answers: Python loops over states and sentences, a hand-written stable log-sum-exp, Viterbi with end folded into the last emissions.

answers: solution
loses: nothing
"""
# %% hmm_viterbi
def hmm_viterbi(log_init, log_trans, log_emit):
    T, K = log_emit.shape
    delta = [float(log_init[k] + log_emit[0, k]) for k in range(K)]
    pointers = []
    for i in range(1, T):
        new, back = [], []
        for cur in range(K):
            best = max(range(K), key=lambda prev: delta[prev] + float(log_trans[prev, cur]))
            new.append(delta[best] + float(log_trans[best, cur]) + float(log_emit[i, cur]))
            back.append(best)
        delta = new
        pointers.append(back)
    state = max(range(K), key=lambda k: delta[k])
    path = [state]
    for back in reversed(pointers):
        path.insert(0, back[path[0]])
    return path, delta[state]


# %% crf_score
def crf_score(emissions, tags, transitions, start, end):
    tags = [int(t) for t in tags]
    score = start[tags[0]] + emissions[0, tags[0]]
    for i in range(1, len(tags)):
        score = score + transitions[tags[i - 1], tags[i]] + emissions[i, tags[i]]
    return score + end[tags[-1]]


# %% crf_log_partition
def crf_log_partition(emissions, mask, transitions, start, end):
    def log_sum_exp(x, dim):
        top = x.max(dim=dim, keepdim=True).values
        return (top + (x - top).exp().sum(dim=dim, keepdim=True).log()).squeeze(dim)

    results = []
    for b in range(emissions.shape[0]):
        n = int(mask[b].sum())
        alpha = start + emissions[b, 0]
        for i in range(1, n):
            alpha = log_sum_exp(alpha[:, None] + transitions, 0) + emissions[b, i]
        results.append(log_sum_exp(alpha + end, 0))
    return torch.stack(results)


# %% crf_nll
def crf_nll(emissions, tags, mask, transitions, start, end):
    losses = []
    for b in range(emissions.shape[0]):
        n = int(mask[b].sum())
        log_z = crf_log_partition(emissions[b:b + 1, :n], mask[b:b + 1, :n], transitions, start, end)[0]
        losses.append(log_z - crf_score(emissions[b, :n], tags[b, :n], transitions, start, end))
    return torch.stack(losses).mean()


# %% crf_viterbi
def crf_viterbi(emissions, transitions, start, end):
    folded = emissions.clone()
    folded[-1] = folded[-1] + end  # an HMM-style decoder with the end scores moved into the last position
    return hmm_viterbi(start, transitions, folded)
