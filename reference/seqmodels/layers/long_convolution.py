"""A causal convolution with a kernel as long as the sequence, through the FFT (S4, §3.3: "the convolution
... can be computed with FFTs"; chapter 07's convolution with a kernel of width L).

    y[t] = Σ_{k ≤ t} K[k] u[t − k]                                                  (S4, Eq. 4)

The FFT multiplies spectra, which is a *circular* convolution over the FFT length n: terms that run past the
end wrap around to the start. Padding both signals with zeros to n ≥ 2L − 1 leaves nothing to wrap into the
first L outputs, which are then the causal convolution; O(L log L) instead of the direct O(L²).
"""
import torch


def causal_conv_fft(u: torch.Tensor, K: torch.Tensor) -> torch.Tensor:
    """``u [B, L, D]`` convolved causally with the per-channel kernel ``K [D, L]`` along time: ``[B, L, D]``."""
    L = u.shape[1]
    n = 2 * L  # >= 2L − 1: no wrap-around into the first L outputs
    u_f = torch.fft.rfft(u, n=n, dim=1)  # [B, n/2 + 1, D]
    K_f = torch.fft.rfft(K, n=n, dim=-1).transpose(0, 1)  # [n/2 + 1, D]
    return torch.fft.irfft(u_f * K_f, n=n, dim=1)[:, :L]
