"""causal_conv_fft against the direct O(L²) sum y[t] = Σ_{k≤t} K[k] u[t−k] in float64; no wrap-around; gradients;
a number of PyTorch calls that does not grow with L (grading.student.watch.TorchCallCounter)."""
import pytest
import torch

from grading.student.watch import TorchCallCounter
from seqmodels.layers.long_convolution import causal_conv_fft


def direct_sum(u: torch.Tensor, K: torch.Tensor) -> torch.Tensor:
    L = u.shape[1]
    return torch.stack([sum(K[:, k] * u[:, t - k] for k in range(t + 1)) for t in range(L)], dim=1)


@pytest.mark.parametrize("L", [1, 2, 7, 16])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_matches_the_direct_sum(L, dtype, device):
    g = torch.Generator().manual_seed(L)
    u, K = torch.randn(2, L, 3, generator=g, dtype=torch.float64), torch.randn(3, L, generator=g, dtype=torch.float64)
    got = causal_conv_fft(u.to(dtype).to(device), K.to(dtype).to(device))
    assert got.dtype == dtype and got.shape == (2, L, 3)
    torch.testing.assert_close(got.cpu().double(), direct_sum(u, K), atol=1e-5 if dtype == torch.float32 else 1e-12,
                               rtol=1e-5 if dtype == torch.float32 else 1e-12)


def test_no_wrap_around():
    # an impulse at the last step: a circular convolution would carry K[1:] back to the first outputs
    u = torch.zeros(1, 4, 1, dtype=torch.float64)
    u[0, 3, 0] = 1.0
    got = causal_conv_fft(u, torch.tensor([[1.0, 2.0, 3.0, 4.0]], dtype=torch.float64))
    torch.testing.assert_close(got[0, :, 0], torch.tensor([0.0, 0.0, 0.0, 1.0], dtype=torch.float64))


def test_gradients():
    g = torch.Generator().manual_seed(3)
    u = torch.randn(1, 5, 2, generator=g, dtype=torch.float64, requires_grad=True)
    K = torch.randn(2, 5, generator=g, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(causal_conv_fft, (u, K))


def test_calls_do_not_grow_with_length_and_memory_stays_linear():
    counts = []
    for L in (64, 4096):
        u, K = torch.randn(1, L, 1), torch.randn(1, L)
        with TorchCallCounter() as counter:
            causal_conv_fft(u, K)
        counts.append(counter.calls)
        assert any("fft" in name for name in counter.names)
        assert counter.largest < L * L
    assert counts[0] == counts[1]
