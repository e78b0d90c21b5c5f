"""Textbook formulas with a bare exp: sigmoid, softplus, softmax and log_softmax overflow at +-1000; max_pool fills padding with 0; ffnn ignores its activation argument.

answers: solution
loses: test_sigmoid_stable test_softplus_stable test_softmax_stable test_log_softmax_stable test_max_pool_aziz test_max_pool_edges test_ffnn_activation
hint: apply the activation you are given
hint: log(softmax(x)) gives log(0)
hint: fill the padding with -inf
hint: padding can never win the maximum
hint: feed both branches exp(-|x|)
hint: subtract the maximum of each row
hint: log(1 + exp(1000)) overflows
"""
# %% sigmoid
def sigmoid(x):
    return 1 / (1 + torch.exp(-x))

# %% softplus
def softplus(x):
    return torch.log(1 + torch.exp(x))

# %% softmax
def softmax(x, dim=-1):
    e = torch.exp(x)
    return e / e.sum(dim=dim, keepdim=True)

# %% log_softmax
def log_softmax(x, dim=-1):
    return x - torch.log(torch.exp(x).sum(dim=dim, keepdim=True))

# %% max_pool
def max_pool(x, mask):
    return (x * mask.unsqueeze(-1)).amax(dim=1)

# %% ffnn
def ffnn(u, W1, b1, W2, b2, activation=torch.relu):
    return linear(torch.relu(linear(u, W1, b1)), W2, b2)
