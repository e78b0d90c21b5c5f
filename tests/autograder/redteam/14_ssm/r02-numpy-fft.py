"""causal_conv_fft computes the convolution with NumPy's FFT, outside autograd, and turns the result back into a tensor.

answers: solution
layer: worker
loses: test_causal_conv_fft test_causal_conv_fft_calls test_causal_conv_fft_gradients
says: numpy
"""
# %% causal_conv_fft
import numpy as np


def causal_conv_fft(u, K):
    L = u.shape[1]
    spectrum = np.fft.rfft(u.detach().numpy(), n=2 * L, axis=1) * np.fft.rfft(K.detach().numpy(), n=2 * L, axis=-1).T
    return torch.as_tensor(np.fft.irfft(spectrum, n=2 * L, axis=1)[:, :L], dtype=u.dtype)
