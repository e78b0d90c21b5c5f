"""layer_norm and add_and_norm against F.layer_norm."""
import torch
from torch.nn import functional as F

from seqmodels.layers.normalization import add_and_norm, layer_norm


def test_layer_norm_matches_pytorch_values_and_gradients(device):
    g = torch.Generator().manual_seed(0)
    x = (torch.randn(3, 4, 5, generator=g, dtype=torch.float64) * 100 + 7).to(device).requires_grad_()
    gamma, beta = (torch.randn(5, generator=g, dtype=torch.float64).to(device).requires_grad_() for _ in range(2))
    ours = layer_norm(x, gamma, beta)
    expected = F.layer_norm(x, (5,), gamma, beta, eps=1e-5)
    torch.testing.assert_close(ours, expected)
    torch.testing.assert_close(torch.autograd.grad(ours.sum() ** 2, (x, gamma, beta)),
                               torch.autograd.grad(expected.sum() ** 2, (x, gamma, beta)))


def test_constant_vectors_normalise_to_beta():
    x = torch.full((2, 4), 3.0)
    assert torch.equal(layer_norm(x, torch.ones(4), torch.arange(4.0)), torch.arange(4.0).expand(2, 4))


def test_add_and_norm_is_layer_norm_of_the_residual_sum():
    g = torch.Generator().manual_seed(1)
    x, sub = torch.randn(2, 3, 6, generator=g), torch.randn(2, 3, 6, generator=g)
    gamma, beta = torch.rand(6, generator=g), torch.randn(6, generator=g)
    torch.testing.assert_close(add_and_norm(x, sub, gamma, beta), F.layer_norm(x + sub, (6,), gamma, beta))
