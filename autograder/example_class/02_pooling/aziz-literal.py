"""Takes formulas too literally: Aziz's sigmoid 1/(1+exp(a)) with the erratum's sign, a mean that divides by the padded length L, and a linear map that forgets the bias (so ffnn fails too).

answers: solution
loses: test_sigmoid_values test_sigmoid_gradient test_sigmoid_stable test_mean_pool_aziz test_mean_pool_edges test_linear_fig_f1 test_ffnn_worked test_ffnn_activation
hint: add the bias b
hint: divide each row by its own number of real tokens
hint: padding is neither added nor counted
hint: Aziz's text drops the minus sign
hint: builds on your linear
"""
# %% sigmoid
def sigmoid(x):
    return 1 / (1 + torch.exp(x))

# %% mean_pool
def mean_pool(x, mask):
    summed = x.masked_fill(~mask.unsqueeze(-1), 0.0).sum(dim=1)
    return summed / x.shape[1]

# %% linear
def linear(u, W, b=None):
    return u @ W.T
