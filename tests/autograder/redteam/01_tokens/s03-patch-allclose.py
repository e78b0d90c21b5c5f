"""A wrong onehot, and torch.allclose patched to always say yes.

answers: solution
loses: test_onehot_awesome test_onehot_batched
says: changes `torch.allclose`
"""
# %% onehot
def onehot(ids, V):
    return torch.zeros(*ids.shape, V)


torch.allclose = lambda *args, **kwargs: True
