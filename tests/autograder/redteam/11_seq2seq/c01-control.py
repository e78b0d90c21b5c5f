"""An honest, correct submission graded in the same batch, with its own layer_norm.

answers: solution
loses: nothing
"""
# %% layer_norm
def layer_norm(x, gamma, beta, eps=1e-05):
    centred = x - x.mean(dim=-1, keepdim=True)
    variance = (centred**2).mean(dim=-1, keepdim=True)
    return gamma * centred / torch.sqrt(variance + eps) + beta
