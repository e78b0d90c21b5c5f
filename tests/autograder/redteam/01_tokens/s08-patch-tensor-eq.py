"""A wrong onehot, and torch.Tensor.__eq__ patched.

answers: solution
loses: test_onehot_awesome test_onehot_batched
says: __eq__
"""
# %% onehot
def onehot(ids, V):
    return torch.zeros(*ids.shape, V)


torch.Tensor.__eq__ = lambda self, other: True
