"""An honest, correct submission graded in the same batch, with its own gate_update.

answers: solution
loses: nothing
"""
# %% gate_update
def gate_update(s, x, g):
    return x * g + s * (1 - g)
