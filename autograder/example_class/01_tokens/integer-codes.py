"""onehot returns integer codes (no float32); embed multiplies float32 one-hot codes by E, so float64 tables fail (the error names the mixed dtypes).

answers: solution
loses: test_onehot_awesome test_onehot_batched test_embed_onehot_grad
hint: a single id gives a float32 vector
hint: one-hot codes are float32 vectors
hint: your code mixes tensors of different dtypes
"""
# %% onehot
def onehot(ids, V):
    return (ids.unsqueeze(-1) == torch.arange(V)).long()


# %% embed
def embed(ids, E):
    codes = (ids.unsqueeze(-1) == torch.arange(E.shape[0])).float()
    return codes @ E
