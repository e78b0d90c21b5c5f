"""A wrong onehot, and its test cell rewritten to pass: the grader runs the released test.

answers: solution
loses: test_onehot_awesome test_onehot_batched
says: differ from the current release
"""
# %% onehot
def onehot(ids, V):
    return torch.zeros(*ids.shape, V)
# %% test_onehot_batched
passed("batched one-hot codes");
