"""sum_pool accumulates in a float32 buffer (float64 comes back float32), max_pool adds (1 - mask) * -inf (0 * -inf is nan), log_softmax forgets to add the maximum back, ffnn has no activation at all.

answers: solution
loses: test_sum_pool_edges test_max_pool_aziz test_max_pool_edges test_log_softmax_values test_log_softmax_stable test_ffnn_worked test_ffnn_activation
hint: the activation acts on the hidden layer
hint: x_d - log sum_k exp(x_k)
hint: fill the padding with -inf
hint: padding can never win the maximum
hint: float64 in, float64 out
"""
# %% sum_pool
def sum_pool(x, mask):
    B, L, D = x.shape
    out = torch.zeros(B, D)
    for b in range(B):
        for l in range(L):
            if mask[b, l]:
                out[b] += x[b, l]
    return out

# %% max_pool
def max_pool(x, mask):
    padding = (1 - mask.float()).unsqueeze(-1) * float("-inf")
    return (x + padding).amax(dim=1)

# %% log_softmax
def log_softmax(x, dim=-1):
    m = x.amax(dim=dim, keepdim=True)
    return x - torch.log(torch.exp(x - m).sum(dim=dim, keepdim=True))

# %% ffnn
def ffnn(u, W1, b1, W2, b2, activation=torch.relu):
    return linear(linear(u, W1, b1), W2, b2)
