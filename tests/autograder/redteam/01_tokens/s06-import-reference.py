"""Imports pad_batch from the reference package.

answers: solution
loses: test_pad_batch_aziz test_pad_batch_edges
says: reference package
"""
# %% pad_batch
from seqmodels import pad_batch
