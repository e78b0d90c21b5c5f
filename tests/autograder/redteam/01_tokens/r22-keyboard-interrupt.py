"""embed raises KeyboardInterrupt, as if the grader were stopped.

answers: solution
layer: checker
loses: test_embed_table_f2 test_embed_onehot_grad
"""
# %% embed
def embed(ids, E):
    raise KeyboardInterrupt
