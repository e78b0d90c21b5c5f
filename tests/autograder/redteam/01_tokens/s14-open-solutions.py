"""Reads the instructor's notebook (hidden tests) from disk.

answers: solution
loses: test_build_vocab_table_f1 test_build_vocab_min_freq_max_size test_build_vocab_ties_specials
says: uses `open`
"""
# %% build_vocab
hidden = open("../../../../../solutions/01_tokens/01_tokens.ipynb").read()
def build_vocab(corpus, min_freq=1, max_size=None, specials=("[PAD]", "[UNK]")):
    return {}
