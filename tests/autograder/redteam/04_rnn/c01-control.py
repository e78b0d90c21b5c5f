"""An honest, correct submission graded in the same batch, with its own rnn_step.

answers: solution
loses: nothing
"""
# %% rnn_step
def rnn_step(u_prev, e, R, W, b=None):
    pre = u_prev @ R.T + e @ W.T
    return torch.tanh(pre if b is None else pre + b)
