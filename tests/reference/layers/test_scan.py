"""linear_scan against the float64 loop over t; the four-step example of the chapter by hand; any length; decays
of 0.5 over 4,096 steps in float32 (where cumprod-and-divide underflows); gradients; O(log L) PyTorch calls."""
import pytest
import torch

from grading.student.watch import TorchCallCounter
from seqmodels.layers.scan import linear_scan


def loop(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    h, out = torch.zeros_like(b[:, 0]), []
    for t in range(a.shape[1]):
        h = a[:, t] * h + b[:, t]
        out.append(h)
    return torch.stack(out, dim=1)


def test_four_steps_by_hand():
    # h_0 = 1, h_1 = 0.5·1 + 2 = 2.5, h_2 = 0.5·2.5 + 3 = 4.25, h_3 = 1·4.25 + 4 = 8.25
    a = torch.tensor([[[9.0], [0.5], [0.5], [1.0]]])  # a_0 multiplies h_{−1} = 0: it never shows
    b = torch.tensor([[[1.0], [2.0], [3.0], [4.0]]])
    assert torch.equal(linear_scan(a, b)[0, :, 0], torch.tensor([1.0, 2.5, 4.25, 8.25]))


@pytest.mark.parametrize("L", [1, 2, 3, 5, 8, 13, 64])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_matches_the_float64_loop(L, dtype, device):
    g = torch.Generator().manual_seed(L)
    a = torch.rand(2, L, 3, generator=g, dtype=torch.float64) * 0.9 + 0.1
    b = torch.randn(2, L, 3, generator=g, dtype=torch.float64)
    got = linear_scan(a.to(dtype).to(device), b.to(dtype).to(device))
    assert got.dtype == dtype
    torch.testing.assert_close(got.cpu().double(), loop(a, b), atol=1e-5 if dtype == torch.float32 else 1e-12,
                               rtol=1e-5 if dtype == torch.float32 else 1e-12)


def test_small_decays_over_a_long_sequence_in_float32():
    g = torch.Generator().manual_seed(0)
    a = torch.full((1, 4096, 2), 0.5)
    b = torch.randn(1, 4096, 2, generator=g)
    got = linear_scan(a, b)
    assert torch.isfinite(got).all()
    torch.testing.assert_close(got.double(), loop(a.double(), b.double()), atol=1e-5, rtol=1e-5)


def test_gradients_and_inputs_left_alone():
    g = torch.Generator().manual_seed(1)
    a = (torch.rand(1, 6, 2, generator=g, dtype=torch.float64) * 0.9 + 0.1).requires_grad_()
    b = torch.randn(1, 6, 2, generator=g, dtype=torch.float64, requires_grad=True)
    before = a.detach().clone(), b.detach().clone()
    assert torch.autograd.gradcheck(linear_scan, (a, b))
    assert torch.equal(a, before[0]) and torch.equal(b, before[1])


def test_calls_grow_with_log_length():
    counts = []
    for L in (64, 4096):
        with TorchCallCounter() as counter:
            linear_scan(torch.full((1, L, 1), 0.9), torch.ones(1, L, 1))
        counts.append(counter.calls)
    assert counts[1] <= 3 * counts[0]
