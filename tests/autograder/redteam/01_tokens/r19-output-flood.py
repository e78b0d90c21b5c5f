"""encode prints 3 MB every time it is called.

answers: solution
loses: test_encode_decode_unk test_encode_decode_more
says: output limit
"""
# %% encode_decode
def encode(tokens, vocab, unk="[UNK]"):
    print("x" * 3_000_000)
    return [vocab.get(t, vocab[unk]) for t in tokens]


def decode(ids, vocab):
    inverse = {i: t for t, i in vocab.items()}
    return [inverse[i] for i in ids]
