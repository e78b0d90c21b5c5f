"""pad_batch allocates 6 GB.

answers: solution
layer: worker
loses: test_pad_batch_aziz test_pad_batch_edges
"""
# %% pad_batch
def pad_batch(seqs, pad_id=0):
    hoard = bytearray(6 * 2**30)
    return hoard
