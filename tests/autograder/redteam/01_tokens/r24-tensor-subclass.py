"""onehot returns a tensor subclass (which could redefine comparisons).

answers: solution
layer: checker
loses: test_onehot_awesome test_onehot_batched
says: expected a torch.Tensor
"""
# %% onehot
Sneaky = type("Sneaky", (torch.Tensor,), {})


def onehot(ids, V):
    return (ids.unsqueeze(-1) == torch.arange(V)).float().as_subclass(Sneaky)
