"""chunked_linear_scan against the float64 loop over t: lengths that chunks do and do not divide, chunks of one
step and of the whole sequence, decays of 0.5 over 4,096 steps in float32, gradients."""
import pytest
import torch

from seqmodels.layers.scan_chunked import chunked_linear_scan
from tests.reference.layers.test_scan import loop


@pytest.mark.parametrize(("L", "chunk"), [(1, None), (7, None), (10, 3), (64, None), (65, 8), (5, 1), (9, 9), (9, 20)])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_matches_the_float64_loop(L, chunk, dtype, device):
    g = torch.Generator().manual_seed(L)
    a = torch.rand(2, L, 3, generator=g, dtype=torch.float64) * 0.9 + 0.1
    b = torch.randn(2, L, 3, generator=g, dtype=torch.float64)
    got = chunked_linear_scan(a.to(dtype).to(device), b.to(dtype).to(device), chunk)
    assert got.dtype == dtype and got.shape == (2, L, 3)
    tol = 1e-5 if dtype == torch.float32 else 1e-12
    torch.testing.assert_close(got.cpu().double(), loop(a, b), atol=tol, rtol=tol)


def test_small_decays_over_a_long_sequence_in_float32():
    g = torch.Generator().manual_seed(0)
    a, b = torch.full((1, 4096, 2), 0.5), torch.randn(1, 4096, 2, generator=g)
    torch.testing.assert_close(chunked_linear_scan(a, b).double(), loop(a.double(), b.double()), atol=1e-5, rtol=1e-5)


def test_gradients():
    g = torch.Generator().manual_seed(1)
    a = (torch.rand(1, 7, 2, generator=g, dtype=torch.float64) * 0.9 + 0.1).requires_grad_()
    b = torch.randn(1, 7, 2, generator=g, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda x, y: chunked_linear_scan(x, y, 3), (a, b))
