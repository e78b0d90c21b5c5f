"""The stable activations against PyTorch's built-ins, at +-1000, at 0 (one-sided derivatives) and by gradcheck."""
import pytest
import torch
import torch.nn.functional as F

from seqmodels.layers.activations import log_softmax, sigmoid, softmax, softplus

EXTREMES = [-1000.0, -100.0, -20.0, -1.0, -1e-8, 0.0, 1e-8, 1.0, 20.0, 100.0, 1000.0]


@pytest.mark.parametrize("mine, theirs", [(sigmoid, torch.sigmoid), (softplus, F.softplus)])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_elementwise_values_and_derivatives_match_torch_everywhere(mine, theirs, dtype, device):
    x = torch.tensor(EXTREMES, dtype=dtype, device=device, requires_grad=True)
    ours, reference = mine(x), theirs(x)
    torch.testing.assert_close(ours, reference)
    assert torch.isfinite(ours).all()
    torch.testing.assert_close(torch.autograd.grad(ours.sum(), x)[0], torch.autograd.grad(reference.sum(), x)[0])


def test_softplus_derivative_is_the_sigmoid():  # Aziz F.3: d/da softplus(a) = sigmoid(a)
    x = torch.linspace(-30, 30, 241, dtype=torch.float64, requires_grad=True)
    torch.testing.assert_close(torch.autograd.grad(softplus(x).sum(), x)[0], sigmoid(x.detach()))


@pytest.mark.parametrize("mine, theirs", [(softmax, torch.softmax), (log_softmax, torch.log_softmax)])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_normalisers_match_torch_on_huge_logits(mine, theirs, dim, device):
    g = torch.Generator().manual_seed(dim + 5)
    x = (1000 * torch.randn(3, 4, 5, generator=g, dtype=torch.float64)).to(device).requires_grad_()
    ours, reference = mine(x, dim), theirs(x, dim)
    torch.testing.assert_close(ours, reference)
    weights = torch.randn(ours.shape, generator=g, dtype=torch.float64).to(device)
    torch.testing.assert_close(torch.autograd.grad((ours * weights).sum(), x)[0],
                               torch.autograd.grad((reference * weights).sum(), x)[0])


@pytest.mark.parametrize("fn", [sigmoid, softplus, softmax, log_softmax])
def test_gradcheck(fn):
    x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(fn, (x,))


def test_float32_softmax_of_a_row_of_equal_huge_logits_is_uniform():
    torch.testing.assert_close(softmax(torch.full((1, 4), 1e4)), torch.full((1, 4), 0.25))
    torch.testing.assert_close(log_softmax(torch.full((4,), -1e4)), torch.full((4,), -torch.log(torch.tensor(4.0))))
