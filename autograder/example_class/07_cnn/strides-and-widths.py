"""conv2d strides down the rows only; conv1d_same hard-codes the padding of a width-3 filter (one zero vector per
side), so its output has the wrong length for other widths; receptive_field ignores the stride.

answers: solution
loses: test_conv2d_padding_stride test_conv2d_shapes test_conv2d_gradient test_conv1d_same_widths test_conv1d_same_gradient test_receptive_field_stride test_char_cnn_edges test_char_cnn_worked test_char_cnn_gradient
hint: a width-1 filter needs no padding
hint: down AND across
hint: positions the window cannot reach are dropped
hint: the first layer's stride only spaces out
hint: builds on your conv1d_same
"""
# %% conv2d
def conv2d(A, K, stride=1, padding=0):
    padded = torch.nn.functional.pad(A, (padding, padding, padding, padding))
    kh, kw = K.shape
    out = []
    for i in range(0, padded.shape[0] - kh + 1, stride):
        out.append(torch.stack([(padded[i : i + kh, j : j + kw] * K).sum() for j in range(padded.shape[1] - kw + 1)]))
    return torch.stack(out)


# %% conv1d_same
def conv1d_same(x, filters, bias):
    r = filters.shape[1]
    padded = torch.nn.functional.pad(x, (0, 0, 1, 1))
    L = padded.shape[1] - r + 1
    out = bias
    for k in range(r):
        out = out + padded[:, k : k + L] @ filters[:, k].T
    return out


# %% receptive_field
def receptive_field(num_layers, r, stride=1):
    return 1 + num_layers * (r - 1)
