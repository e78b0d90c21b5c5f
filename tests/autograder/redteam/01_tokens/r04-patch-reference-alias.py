"""A wrong build_vocab, copied over the reference package's through sys.modules.

answers: solution
layer: checker
loses: test_build_vocab_min_freq_max_size test_build_vocab_table_f1 test_build_vocab_ties_specials
says: did not run: KeyError
"""
# %% build_vocab
def build_vocab(corpus, min_freq=1, max_size=None, specials=("[PAD]", "[UNK]")):
    return {}


sys_ = getattr(torch, "sy" + "s")  # reaches sys without writing its name
mods_ = getattr(sys_, "mod" + "ules")
reference_ = mods_["seqmodels"]
reference_.build_vocab = build_vocab
