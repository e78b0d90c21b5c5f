"""An honest, correct submission graded in the same batch, with its own stack.

answers: solution
loses: nothing
"""
# %% stack
def stack(x, layers, residual):
    for layer in layers:
        x = layer(x) + x if residual else layer(x)
    return x
