"""An honest, correct submission graded in the same batch, with its own relative_distances.

answers: solution
loses: nothing
"""
# %% relative_distances
def relative_distances(m):
    i = torch.arange(m)
    return (i.unsqueeze(1) - i.unsqueeze(0)).abs()
