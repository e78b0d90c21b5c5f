"""Correct answers written differently: rms_norm with rsqrt, the kernel's powers as exp(k log A_bar), the convolution through the complex FFT at the next power of two, the scan with Blelloch's up-sweep and down-sweep written recursively (pairs of steps composed, the half-length scan, then the odd positions), linear attention as the masked L x L matrix of feature products.

answers: solution
loses: nothing
"""
# %% rms_norm
def rms_norm(x, weight, eps=1e-5):
    return weight * x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)


# %% ssm_kernel
def ssm_kernel(A_bar, B_bar, C, L):
    k = torch.arange(L, dtype=A_bar.dtype, device=A_bar.device)
    return ((C * B_bar)[..., None] * torch.exp(k * torch.log(A_bar)[..., None])).sum(1)


# %% causal_conv_fft
def causal_conv_fft(u, K):
    L = u.shape[1]
    n = 1 << (2 * L - 1).bit_length()
    spectrum = torch.fft.fft(u, n=n, dim=1) * torch.fft.fft(K.T, n=n, dim=0)
    return torch.fft.ifft(spectrum, dim=1).real[:, :L]


# %% linear_scan
def linear_scan(a, b):
    L = a.shape[1]
    if L == 1:
        return b
    even = L - L % 2  # steps 0..even-1 in pairs (2i, 2i + 1); an odd last step is added at the end
    a_pair = a[:, 1:even:2] * a[:, 0:even:2]
    b_pair = a[:, 1:even:2] * b[:, 0:even:2] + b[:, 1:even:2]
    h_odd = linear_scan(a_pair, b_pair)  # h at positions 1, 3, 5, ...
    h_before = torch.cat([torch.zeros_like(b[:, :1]), h_odd], dim=1)[:, : (L + 1) // 2]
    h_even = a[:, 0::2] * h_before + b[:, 0::2]  # h at positions 0, 2, 4, ...
    h = torch.stack([h_even[:, : h_odd.shape[1]], h_odd], dim=2).flatten(1, 2)
    return torch.cat([h, h_even[:, h_odd.shape[1] :]], dim=1)


# %% linear_attention
def linear_attention(q, k, v, eps=1e-6):
    weights = torch.einsum("bthd,bshd->bhts", F.elu(q) + 1, F.elu(k) + 1).tril()
    out = torch.einsum("bhts,bshe->bthe", weights, v)
    return out / (weights.sum(-1).transpose(1, 2)[..., None] + eps)
