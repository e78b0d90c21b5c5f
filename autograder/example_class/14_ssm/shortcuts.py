"""Forbidden shortcuts: rms_norm calls F.rms_norm, causal_conv_fft convolves with F.conv1d.

answers: solution
loses: test_rms_norm test_rms_norm_gradients test_causal_conv_fft test_causal_conv_fft_calls test_causal_conv_fft_gradients
hint: none
"""
# %% rms_norm
def rms_norm(x, weight, eps=1e-5):
    return F.rms_norm(x, (x.shape[-1],), weight, eps)


# %% causal_conv_fft
def causal_conv_fft(u, K):
    L, D = u.shape[1], u.shape[2]
    padded = F.pad(u.transpose(1, 2), (L - 1, 0))
    return F.conv1d(padded, K.flip(-1)[:, None, :], groups=D).transpose(1, 2)
