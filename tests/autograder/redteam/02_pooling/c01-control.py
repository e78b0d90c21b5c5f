"""An honest, correct submission graded in the same batch, with its own sum_pool.

answers: solution
loses: nothing
"""
# %% sum_pool
def sum_pool(x, mask):
    return (x * mask.unsqueeze(-1).to(x.dtype)).sum(dim=1)
