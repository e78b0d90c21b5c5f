"""Runs code built at run time with an exec fetched by a computed name.

answers: solution
layer: checker
loses: nothing
"""
# %% encode_decode
sys_ = getattr(torch, "sy" + "s")  # reaches sys without writing its name
mods_ = getattr(sys_, "mod" + "ules")
run_ = getattr(mods_["builtins"], "ex" + "ec")


def encode(tokens, vocab, unk="[UNK]"):
    return [vocab.get(t, vocab[unk]) for t in tokens]


def decode(ids, vocab):
    inverse = {i: t for t, i in vocab.items()}
    return [inverse[i] for i in ids]


run_("x = 1")
