"""Calls the forbidden torch.nn.functional.embedding instead of indexing the table.

answers: solution
loses: test_embed_table_f2 test_embed_onehot_grad
hint: none
"""
# %% embed
import torch.nn.functional as F


def embed(ids, E):
    return F.embedding(ids, E)
