"""A wrong pad_batch, and call() replaced by a stub returning the expected table.

answers: solution
loses: test_pad_batch_aziz test_pad_batch_edges
says: redefines `call`
"""
# %% pad_batch
def pad_batch(seqs, pad_id=0):
    return torch.zeros(1, 1, dtype=torch.long), torch.zeros(1, 1, dtype=torch.bool)


call = lambda fn, *args, **kwargs: None
