"""encode calls sys.exit() when the grader calls it.

answers: solution
loses: test_encode_decode_unk test_encode_decode_more
says: imports `sys`
"""
# %% encode_decode
import sys


def encode(tokens, vocab, unk="[UNK]"):
    sys.exit(0)


def decode(ids, vocab):
    sys.exit(0)
