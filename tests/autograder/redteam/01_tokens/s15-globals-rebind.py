"""A wrong encode, and expect_equal replaced through globals().

answers: solution
loses: test_encode_decode_unk test_encode_decode_more
says: uses `globals`
"""
# %% encode_decode
def encode(tokens, vocab, unk="[UNK]"):
    return []


def decode(ids, vocab):
    return []


globals()["expect_equal"] = lambda *args, **kwargs: None
