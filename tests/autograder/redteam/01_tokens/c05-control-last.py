"""An honest, correct submission graded in the same batch (last).

answers: solution
loses: nothing
"""
# %% embed
def embed(ids, E):
    return E[ids]
