"""Calls the forbidden PyTorch shortcuts: F.linear (so ffnn, which calls linear, uses it too), torch.sigmoid and torch.softmax.

answers: solution
loses: test_linear_fig_f1 test_linear_no_bias_batched test_ffnn_worked test_ffnn_activation test_sigmoid_values test_sigmoid_gradient test_sigmoid_stable test_softmax_values test_softmax_stable
hint: builds on your linear
"""
# %% linear
import torch.nn.functional as F


def linear(u, W, b=None):
    return F.linear(u, W, b)

# %% sigmoid
def sigmoid(x):
    return torch.sigmoid(x)

# %% softmax
def softmax(x, dim=-1):
    return torch.softmax(x, dim=dim)
