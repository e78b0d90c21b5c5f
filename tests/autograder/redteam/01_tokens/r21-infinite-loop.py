"""onehot never returns.

answers: solution
layer: checker
loses: test_onehot_awesome test_onehot_batched
says: Timeout
"""
# %% onehot
def onehot(ids, V):
    while True:
        pass
