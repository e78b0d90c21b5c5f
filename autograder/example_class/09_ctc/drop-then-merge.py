"""Collapses by deleting blanks before merging repeats, so 'e ε e' becomes one e; the extended target lacks its final blank; greedy decoding drops blanks without merging repeats.

answers: solution
loses: test_ctc_collapse_see_you test_ctc_collapse_edges test_ctc_extend_example test_ctc_extend_edges test_ctc_greedy_decode_example test_ctc_greedy_decode_edges
hint: merge runs of equal labels FIRST
hint: 2S + 1 symbols
hint: the empty target extends to a single blank
hint: take the argmax symbol of every frame
"""
# %% ctc_collapse
def ctc_collapse(labels, blank=0):
    kept = [int(label) for label in labels if label != blank]
    return [label for i, label in enumerate(kept) if i == 0 or label != kept[i - 1]]


# %% ctc_extend
def ctc_extend(target, blank=0):
    extended = []
    for label in target:
        extended += [blank, int(label)]
    return extended


# %% ctc_greedy_decode
def ctc_greedy_decode(log_probs, blank=0):
    return [label for label in log_probs.argmax(dim=-1).tolist() if label != blank]
