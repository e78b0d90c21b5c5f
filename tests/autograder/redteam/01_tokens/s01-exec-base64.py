"""Hides a correct build_vocab in base64 and runs it with exec.

answers: solution
loses: test_build_vocab_table_f1 test_build_vocab_min_freq_max_size test_build_vocab_ties_specials
says: uses `exec`
"""
# %% build_vocab
import base64

exec(base64.b64decode("ZGVmIGJ1aWxkX3ZvY2FiKCphLCAqKmspOiByZXR1cm4ge30=").decode())
