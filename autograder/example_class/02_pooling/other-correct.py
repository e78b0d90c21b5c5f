"""Correct by other means: loops over the batch, einsum, a tanh-based sigmoid, clamped branches in softplus, an undetached maximum, an ffnn that does not call linear.

answers: solution
loses: nothing
"""
# %% sum_pool
import torch


def sum_pool(x, mask):
    return torch.einsum("bld,bl->bd", x, mask.to(x.dtype))

# %% mean_pool
def mean_pool(x, mask):
    return torch.stack([x[b][mask[b]].mean(dim=0) for b in range(x.shape[0])])

# %% max_pool
def max_pool(x, mask):
    rows = []
    for b in range(x.shape[0]):
        rows.append(x[b][mask[b]].amax(dim=0))
    return torch.stack(rows)

# %% linear
def linear(u, W, b=None):
    v = torch.einsum("...i,oi->...o", u, W)
    return v if b is None else v + b

# %% sigmoid
def sigmoid(x):
    # tanh never overflows: sigma(x) = (1 + tanh(x / 2)) / 2
    return 0.5 * (1 + torch.tanh(0.5 * x))

# %% softplus
def softplus(x):
    # each branch only ever sees the inputs on which it is safe
    upper = x + torch.log1p(torch.exp(-x.clamp(min=0)))
    lower = torch.log1p(torch.exp(x.clamp(max=0)))
    return torch.where(x >= 0, upper, lower)

# %% softmax
def softmax(x, dim=-1):
    shifted = x - x.max(dim=dim, keepdim=True).values
    return torch.exp(shifted - torch.log(torch.exp(shifted).sum(dim=dim, keepdim=True)))

# %% log_softmax
def log_softmax(x, dim=-1):
    m = x.max(dim=dim, keepdim=True).values
    return x - m - torch.log(torch.sum(torch.exp(x - m), dim=dim, keepdim=True))

# %% ffnn
def ffnn(u, W1, b1, W2, b2, activation=torch.relu):
    hidden = activation(u @ W1.T + b1)
    return hidden @ W2.T + b2
