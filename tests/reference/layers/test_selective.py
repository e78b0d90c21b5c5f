"""selective_scan against the float64 loop over t of Mamba's recurrence (Gu & Dao, Algorithm 2, Euler rule for
B); with constant Δ, B, C it is the time-invariant SSM's convolution; gradients; O(log L) PyTorch calls."""
import pytest
import torch

from grading.student.watch import TorchCallCounter
from seqmodels.layers.long_convolution import causal_conv_fft
from seqmodels.layers.selective import selective_scan
from seqmodels.layers.state_space import ssm_kernel


def loop(u, delta, A, B, C, D_skip):
    h, out = torch.zeros(u.shape[0], *A.shape, dtype=torch.float64), []
    for t in range(u.shape[1]):
        A_bar = torch.exp(delta[:, t, :, None] * A)  # [B, D, N]
        h = A_bar * h + delta[:, t, :, None] * B[:, t, None, :] * u[:, t, :, None]
        out.append((h * C[:, t, None, :]).sum(-1) + D_skip * u[:, t])
    return torch.stack(out, dim=1)


def inputs(batch, L, D, N, seed, dtype=torch.float64):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(batch, L, D, generator=g, dtype=dtype),
            torch.rand(batch, L, D, generator=g, dtype=dtype) * 0.5 + 0.01,
            -torch.rand(D, N, generator=g, dtype=dtype) * 2 - 0.1,
            torch.randn(batch, L, N, generator=g, dtype=dtype), torch.randn(batch, L, N, generator=g, dtype=dtype),
            torch.randn(D, generator=g, dtype=dtype))


@pytest.mark.parametrize(("batch", "L", "D", "N"), [(1, 1, 1, 1), (2, 7, 3, 4), (1, 33, 2, 5)])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_matches_the_float64_loop(batch, L, D, N, dtype, device):
    args = inputs(batch, L, D, N, seed=L)
    got = selective_scan(*(t.to(dtype).to(device) for t in args))
    assert got.dtype == dtype and got.shape == (batch, L, D)
    tol = 1e-5 if dtype == torch.float32 else 1e-12
    torch.testing.assert_close(got.cpu().double(), loop(*args), atol=tol, rtol=tol)


def test_constant_parameters_give_the_time_invariant_convolution():
    u, _, A, B, C, D_skip = inputs(1, 6, 2, 3, seed=4)
    delta = torch.tensor([0.3, 0.7], dtype=torch.float64)
    A_bar, B_bar = torch.exp(delta[:, None] * A), delta[:, None] * B[0, 0]  # Euler rule for B, as selective_scan
    K = ssm_kernel(A_bar, B_bar, C[0, 0].expand(2, 3), 6)
    expected = causal_conv_fft(u, K) + D_skip * u
    got = selective_scan(u, delta.expand(1, 6, 2), A, B[:, :1].expand(1, 6, 3), C[:, :1].expand(1, 6, 3), D_skip)
    torch.testing.assert_close(got, expected)


def test_gradients():
    args = [t.requires_grad_() for t in inputs(1, 4, 2, 2, seed=5)]
    assert torch.autograd.gradcheck(selective_scan, tuple(args))


def test_calls_grow_with_log_length():
    counts = []
    for L in (64, 4096):
        args = inputs(1, L, 1, 2, seed=0, dtype=torch.float32)
        with TorchCallCounter() as counter:
            selective_scan(*args)
        counts.append(counter.calls)
    assert counts[1] <= 3 * counts[0]
