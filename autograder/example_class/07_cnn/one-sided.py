"""Pads on one side only: conv2d adds all 2 * padding zeros at the bottom/right, conv1d_same puts all r - 1 zeros
before the sequence (a causal convolution), which shifts every window; char_cnn_word_vector calls that conv1d_same.

answers: solution
loses: test_conv2d_padding_stride test_conv2d_shapes test_conv2d_gradient test_conv1d_same_table test_conv1d_same_widths test_conv1d_same_gradient test_char_cnn_worked test_char_cnn_edges test_char_cnn_gradient
hint: filters[f, 0] weighs the LEFT neighbour
hint: adds one row/column of zeros on EVERY side
hint: builds on your conv1d_same
"""
# %% conv2d
def conv2d(A, K, stride=1, padding=0):
    padded = torch.nn.functional.pad(A, (0, 2 * padding, 0, 2 * padding))
    kh, kw = K.shape
    rows = (padded.shape[0] - kh) // stride + 1
    cols = (padded.shape[1] - kw) // stride + 1
    out = torch.zeros(rows, cols, dtype=A.dtype, device=A.device)
    for a in range(kh):
        for b in range(kw):
            out = out + K[a, b] * padded[a : a + stride * (rows - 1) + 1 : stride, b : b + stride * (cols - 1) + 1 : stride]
    return out


# %% conv1d_same
def conv1d_same(x, filters, bias):
    L, r = x.shape[1], filters.shape[1]
    padded = torch.nn.functional.pad(x, (0, 0, r - 1, 0))
    out = bias
    for k in range(r):
        out = out + padded[:, k : k + L] @ filters[:, k].T
    return out
