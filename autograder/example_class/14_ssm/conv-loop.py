"""causal_conv_fft computes the convolution directly with a Python loop over t (right values, but O(L^2) work and a number of calls that grows with L).

answers: solution
loses: test_causal_conv_fft_calls
hint: no loop over t or k
"""
# %% causal_conv_fft
def causal_conv_fft(u, K):
    outputs = []
    for t in range(u.shape[1]):
        outputs.append((K[:, : t + 1].flip(-1).T * u[:, : t + 1]).sum(1))
    return torch.stack(outputs, dim=1)
