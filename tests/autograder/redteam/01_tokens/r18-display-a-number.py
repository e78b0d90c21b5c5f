"""A wrong onehot that displays 2 from inside the test cell (nbgrader's partial credit).

answers: solution
loses: test_onehot_awesome test_onehot_batched
"""
# %% onehot
sys_ = getattr(torch, "sy" + "s")  # reaches sys without writing its name
mods_ = getattr(sys_, "mod" + "ules")


def onehot(ids, V):
    getattr(sys_, "display" + "hook")(2)
    return torch.zeros(*ids.shape, V)
