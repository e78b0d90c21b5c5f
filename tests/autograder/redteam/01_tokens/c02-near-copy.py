"""Copies the reference pad_batch with renamed variables: flagged, not penalised.

answers: solution
loses: nothing
says: near-copy of the reference
"""
# %% pad_batch
def pad_batch(seqs, pad_id=0):
    if len(seqs) == 0:
        raise ValueError("need a sequence")
    n = max(len(b) for b in seqs)
    out = torch.full((len(seqs), n), pad_id, dtype=torch.long)
    keep = torch.zeros((len(seqs), n), dtype=torch.bool)
    for r, b in enumerate(seqs):
        out[r, : len(b)] = torch.as_tensor(list(b), dtype=torch.long)
        keep[r, : len(b)] = True
    return out, keep
