"""Fetches eval from __builtins__ by a computed name.

answers: solution
loses: test_encode_decode_unk test_encode_decode_more
says: __builtins__
"""
# %% encode_decode
encode = getattr(__builtins__, "ev" + "al")("lambda t, v, unk='[UNK]': []")


def decode(ids, vocab):
    return []
