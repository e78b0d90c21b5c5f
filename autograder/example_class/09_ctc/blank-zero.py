"""Ignores the blank argument (always 0) in ctc_collapse, ctc_extend and ctc_greedy_decode; greedy decoding takes the argmax over time instead of over the symbols.

answers: solution
loses: test_ctc_collapse_edges test_ctc_extend_edges test_ctc_greedy_decode_example test_ctc_greedy_decode_edges
hint: use the blank id you are given
hint: take the argmax symbol of every frame
"""
# %% ctc_collapse
def ctc_collapse(labels, blank=0):
    return [int(label) for i, label in enumerate(labels) if label != 0 and (i == 0 or label != labels[i - 1])]


# %% ctc_extend
def ctc_extend(target, blank=0):
    extended = [0]
    for label in target:
        extended += [int(label), 0]
    return extended


# %% ctc_greedy_decode
def ctc_greedy_decode(log_probs, blank=0):
    best = log_probs.argmax(dim=0).tolist()
    return [label for t, label in enumerate(best) if label != blank and (t == 0 or label != best[t - 1])]
