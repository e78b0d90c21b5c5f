"""pad_batch kills the kernel with os._exit().

answers: solution
loses: test_pad_batch_aziz test_pad_batch_edges
says: imports `os`
"""
# %% pad_batch
import os


def pad_batch(seqs, pad_id=0):
    os._exit(0)
