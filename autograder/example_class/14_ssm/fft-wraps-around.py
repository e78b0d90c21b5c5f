"""causal_conv_fft takes FFTs of length L without zero-padding, which computes the circular convolution: the kernel's tail wraps around onto the first outputs.

answers: solution
loses: test_causal_conv_fft test_causal_conv_fft_gradients
hint: or the kernel wraps around
"""
# %% causal_conv_fft
def causal_conv_fft(u, K):
    L = u.shape[1]
    spectrum = torch.fft.rfft(u, dim=1) * torch.fft.rfft(K, dim=-1).T
    return torch.fft.irfft(spectrum, n=L, dim=1)
