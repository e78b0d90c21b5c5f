"""An honest, correct submission graded in the same batch (first).

answers: solution
loses: nothing
"""
# %% onehot
def onehot(ids, V):
    return (ids.unsqueeze(-1) == torch.arange(V, device=ids.device)).to(torch.float32)
