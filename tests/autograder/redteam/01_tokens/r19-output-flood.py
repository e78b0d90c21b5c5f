"""encode prints 3 MB every time it is called.

answers: solution
layer: worker
loses: nothing
"""
# %% encode_decode
def encode(tokens, vocab, unk="[UNK]"):
    print("x" * 3_000_000)
    return [vocab.get(t, vocab[unk]) for t in tokens]


def decode(ids, vocab):
    inverse = {i: t for t, i in vocab.items()}
    return [inverse[i] for i in ids]
