"""Stable sigmoid and softplus built on x.abs() and relu, whose derivative at 0 is 0 (wrong gradients at 0); sum_pool ignores the mask; linear crashes when b is None.

answers: solution
loses: test_sigmoid_gradient test_softplus_gradient test_sum_pool_aziz test_sum_pool_edges test_linear_no_bias_batched
hint: abs() and relu() have derivative 0 at 0
hint: relu(x) and x.abs() both have derivative 0 at 0
hint: must add nothing to the sum
hint: leave the padded position out
"""
# %% sigmoid
def sigmoid(x):
    z = torch.exp(-x.abs())
    return torch.where(x >= 0, 1 / (1 + z), z / (1 + z))

# %% softplus
def softplus(x):
    return torch.relu(x) + torch.log1p(torch.exp(-torch.abs(x)))

# %% sum_pool
def sum_pool(x, mask):
    return x.sum(dim=1)

# %% linear
def linear(u, W, b=None):
    return u @ W.T + b
