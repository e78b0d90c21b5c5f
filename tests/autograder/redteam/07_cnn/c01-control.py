"""An honest, correct submission graded in the same batch, with its own receptive_field.

answers: solution
loses: nothing
"""
# %% receptive_field
def receptive_field(num_layers, r, stride=1):
    field, jump = 1, 1
    for _ in range(num_layers):
        field += (r - 1) * jump
        jump *= stride
    return field
