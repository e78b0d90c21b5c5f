"""Computes a true convolution (footnote 9, Eq. 4.36): the filter is flipped in conv2d; and a receptive field of
num_layers * r (adding whole windows instead of r - 1 new positions per layer).

answers: solution
loses: test_conv2d_worked test_conv2d_padding_stride test_conv2d_shapes test_conv2d_gradient test_receptive_field_fig48 test_receptive_field_stride
hint: not flipped (W[0, 0] meets the top-left cell)
hint: each layer with stride 1 adds r - 1 positions
"""
# %% conv2d
def conv2d(A, K, stride=1, padding=0):
    K = K.flip(0, 1)
    padded = torch.nn.functional.pad(A, (padding, padding, padding, padding))
    kh, kw = K.shape
    rows = (padded.shape[0] - kh) // stride + 1
    cols = (padded.shape[1] - kw) // stride + 1
    out = torch.zeros(rows, cols, dtype=A.dtype)
    for a in range(kh):
        for b in range(kw):
            out = out + K[a, b] * padded[a : a + stride * (rows - 1) + 1 : stride, b : b + stride * (cols - 1) + 1 : stride]
    return out


# %% receptive_field
def receptive_field(num_layers, r, stride=1):
    return max(1, num_layers * r)
