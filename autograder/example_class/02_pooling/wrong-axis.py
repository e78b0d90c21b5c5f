"""Wrong axes: softmax always normalises the last axis whatever dim says, linear computes u @ W (W not transposed, so ffnn fails too), max_pool returns x.max's (values, indices) pair.

answers: solution
loses: test_softmax_values test_linear_fig_f1 test_linear_no_bias_batched test_ffnn_worked test_ffnn_activation test_max_pool_aziz test_max_pool_edges
hint: x.max(dim) returns a (values, indices) pair
hint: normalise along the axis
hint: builds on your linear
"""
# %% softmax
def softmax(x, dim=-1):
    e = torch.exp(x - x.amax(dim=-1, keepdim=True))
    return e / e.sum(dim=-1, keepdim=True)

# %% linear
def linear(u, W, b=None):
    v = u @ W
    return v if b is None else v + b

# %% max_pool
def max_pool(x, mask):
    return x.masked_fill(~mask.unsqueeze(-1), float("-inf")).max(dim=1)
