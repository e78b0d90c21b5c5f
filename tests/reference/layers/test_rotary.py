"""rope against complex multiplication (each pair as x_2i + i·x_2i+1 times e^{i m θ_i}, Su et al. Eq. 34's
other form); dot products depend on m − n only; lengths are kept; gradients; float32 and float64."""
import pytest
import torch

from seqmodels.layers.rotary import rope


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_matches_multiplying_by_complex_rotations(dtype, device):
    g = torch.Generator().manual_seed(0)
    x = torch.randn(2, 5, 3, 8, generator=g, dtype=dtype).to(device)
    positions = torch.tensor([0, 1, 2, 7, 100], device=device)
    theta = 10000.0 ** (-torch.arange(0, 8, 2, dtype=torch.float64) / 8)
    turns = torch.polar(torch.ones(5, 4, dtype=torch.float64), positions.cpu().double()[:, None] * theta)
    as_complex = torch.view_as_complex(x.cpu().double().reshape(2, 5, 3, 4, 2).contiguous())
    expected = torch.view_as_real(as_complex * turns[:, None, :]).reshape(2, 5, 3, 8)
    torch.testing.assert_close(rope(x, positions).cpu().double(), expected, atol=1e-5, rtol=1e-5)
    assert rope(x, positions).dtype == dtype
    torch.testing.assert_close(rope(x, positions).norm(dim=-1), x.norm(dim=-1))


def test_dot_products_depend_on_the_offset_only():
    g = torch.Generator().manual_seed(1)
    q, k = torch.randn(1, 1, 1, 16, generator=g, dtype=torch.float64), torch.randn(1, 1, 1, 16, generator=g,
                                                                                 dtype=torch.float64)

    def score(m, n):
        return float((rope(q, torch.tensor([m])) * rope(k, torch.tensor([n]))).sum())

    assert score(5, 2) == pytest.approx(score(13, 10)) == pytest.approx(score(3, 0))
    assert score(5, 2) != pytest.approx(score(5, 3))
    assert torch.equal(rope(q, torch.tensor([0])), q)  # position 0 turns nothing


def test_gradients_and_odd_sizes():
    x = torch.randn(1, 3, 2, 4, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda t: rope(t, torch.arange(3), base=100.0), (x,))
    with pytest.raises(ValueError, match="even"):
        rope(torch.zeros(1, 1, 1, 3), torch.arange(1))
