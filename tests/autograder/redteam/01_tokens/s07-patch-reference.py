"""A wrong build_vocab, and the reference's build_vocab replaced by it.

answers: solution
loses: test_build_vocab_table_f1 test_build_vocab_min_freq_max_size test_build_vocab_ties_specials
says: reference package
"""
# %% build_vocab
def build_vocab(corpus, min_freq=1, max_size=None, specials=("[PAD]", "[UNK]")):
    return {}


import seqmodels

seqmodels.build_vocab = build_vocab
