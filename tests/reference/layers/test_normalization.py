"""layer_norm and add_and_norm against F.layer_norm; rms_norm against nn.RMSNorm."""
import pytest
import torch
from torch.nn import functional as F

from seqmodels.layers.normalization import add_and_norm, layer_norm, rms_norm


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


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_rms_norm_matches_nn_rmsnorm_values_and_gradients(dtype, device):
    g = torch.Generator().manual_seed(2)
    x = (torch.randn(2, 3, 4, 6, generator=g, dtype=dtype) * 50 + 3).to(device).requires_grad_()
    oracle = torch.nn.RMSNorm(6, eps=1e-5, dtype=dtype, device=device)
    with torch.no_grad():
        oracle.weight.copy_(torch.randn(6, generator=g, dtype=dtype))
    weight = oracle.weight.detach().clone().requires_grad_()
    ours, expected = rms_norm(x, weight), oracle(x)
    torch.testing.assert_close(ours, expected)
    torch.testing.assert_close(torch.autograd.grad(ours.sum() ** 2, (x, weight)),
                               torch.autograd.grad(expected.sum() ** 2, (x, oracle.weight)))


def test_rms_norm_of_one_vector_and_of_zeros():
    weight = torch.tensor([1.0, 2.0])
    # (3, 4): mean of squares 12.5, eps 0 -> divide by sqrt(12.5)
    torch.testing.assert_close(rms_norm(torch.tensor([3.0, 4.0]), weight, eps=0.0),
                               torch.tensor([3.0, 8.0]) / 12.5 ** 0.5)
    assert torch.equal(rms_norm(torch.zeros(3, 2), weight), torch.zeros(3, 2))  # eps keeps 0/0 away
