"""An honest, correct submission graded in the same batch, with its own position_wise_ffn.

answers: solution
loses: nothing
"""
# %% position_wise_ffn
def position_wise_ffn(x, W1, b1, W2, b2):
    hidden = torch.clamp(x @ W1.T + b1, min=0)
    return hidden @ W2.T + b2
