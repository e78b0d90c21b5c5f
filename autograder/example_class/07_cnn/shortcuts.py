"""Calls the forbidden shortcuts: F.conv2d, F.conv1d (so char_cnn_word_vector, which calls conv1d_same, uses it too)
and F.max_pool1d.

answers: solution
loses: test_conv2d_worked test_conv2d_padding_stride test_conv2d_shapes test_conv2d_gradient test_conv1d_same_table test_conv1d_same_widths test_conv1d_same_gradient test_max_over_time_padding test_max_over_time_gradient test_char_cnn_worked test_char_cnn_edges test_char_cnn_gradient
hint: builds on your conv1d_same
"""
# %% conv2d
import torch.nn.functional as F


def conv2d(A, K, stride=1, padding=0):
    return F.conv2d(A[None, None], K[None, None], stride=stride, padding=padding)[0, 0]


# %% conv1d_same
def conv1d_same(x, filters, bias):
    r = filters.shape[1]
    return F.conv1d(x.transpose(1, 2), filters.transpose(1, 2), bias, padding=(r - 1) // 2).transpose(1, 2)


# %% max_over_time
def max_over_time(h, mask):
    masked = h.masked_fill(~mask[:, :, None], float("-inf"))
    return F.max_pool1d(masked.transpose(1, 2), masked.shape[1]).squeeze(-1)
