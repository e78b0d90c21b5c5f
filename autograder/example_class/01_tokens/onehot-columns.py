"""Stores one-hot codes as columns (Pingali's convention): a batch of N ids gives [V, N], not [N, V].

answers: solution
loses: test_onehot_batched
hint: the new axis goes last
"""
# %% onehot
def onehot(ids, V):
    return torch.eye(V)[:, ids]
