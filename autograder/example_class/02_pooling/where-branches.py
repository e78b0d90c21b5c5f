"""torch.where over branches that overflow (nan gradients in sigmoid and softplus), log_softmax as log(softmax) (-inf), mean_pool's counts without keepdim, and an activation after ffnn's output layer too.

answers: solution
loses: test_sigmoid_stable test_softplus_stable test_log_softmax_stable test_mean_pool_aziz test_mean_pool_edges test_ffnn_worked test_ffnn_activation
hint: no activation on the output layer
hint: log(softmax(x)) gives log(0)
hint: divide each row by its own number of real tokens
hint: feed both branches exp(-|x|)
hint: possibly in a torch.where branch that was not selected
"""
# %% sigmoid
def sigmoid(x):
    return torch.where(x >= 0, 1 / (1 + torch.exp(-x)), torch.exp(x) / (1 + torch.exp(x)))

# %% softplus
def softplus(x):
    return torch.where(x > 20, x, torch.log1p(torch.exp(x)))

# %% log_softmax
def log_softmax(x, dim=-1):
    return torch.log(softmax(x, dim=dim))

# %% mean_pool
def mean_pool(x, mask):
    summed = x.masked_fill(~mask.unsqueeze(-1), 0.0).sum(dim=1)
    return summed / mask.sum(dim=1)

# %% ffnn
def ffnn(u, W1, b1, W2, b2, activation=torch.relu):
    return activation(linear(activation(linear(u, W1, b1)), W2, b2))
