"""A wrong build_vocab, copied over the reference package's through sys.modules.

answers: solution
loses: everything
says: seqmodels.build_vocab was replaced
"""
# %% build_vocab
def build_vocab(corpus, min_freq=1, max_size=None, specials=("[PAD]", "[UNK]")):
    return {}


sys_ = getattr(torch, "sy" + "s")  # reaches sys without writing its name
mods_ = getattr(sys_, "mod" + "ules")
reference_ = mods_["seqmodels"]
reference_.build_vocab = build_vocab
