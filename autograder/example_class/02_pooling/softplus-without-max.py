"""softplus keeps only the log1p(exp(-|x|)) half of the stable formula and forgets max(x, 0).

answers: solution
loses: test_softplus_values test_softplus_stable test_softplus_gradient
hint: softplus(0) = log 2
"""
# %% softplus
def softplus(x):
    return torch.log1p(torch.exp(-x.abs()))
