"""An honest sum_pool beside a harmless patch of torch.sigmoid (through computed names): points kept, instructor told.

answers: solution
layer: worker (the worker compares the libraries before and after the answers load, and reports what changed)
loses: nothing
says: tampering: the answers replaced torch.sigmoid
flagged: yes (every solution-based student here is flagged as a near-copy too: the note above is the point)
"""
# %% sum_pool
import torch

sys_ = getattr(torch, "sy" + "s")  # reaches sys without writing its name
set_ = getattr(getattr(sys_, "mod" + "ules")["built" + "ins"], "set" + "attr")
set_(torch, "sigmoid", lambda x: 1 / (1 + torch.exp(-x)))


def sum_pool(x, mask):
    return (x * mask.unsqueeze(-1)).sum(dim=1)
