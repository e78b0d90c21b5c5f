"""linear and ffnn against torch.nn.functional.linear and a torch.nn.Sequential, with gradients."""
import pytest
import torch
import torch.nn.functional as F

from seqmodels.layers.linear import ffnn, linear


@pytest.mark.parametrize("shape", [(5,), (3, 5), (2, 4, 5), (1, 1, 5)])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_linear_matches_torch(shape, dtype, device):
    g = torch.Generator().manual_seed(0)
    u = torch.randn(shape, generator=g, dtype=dtype).to(device)
    W, b = torch.randn(3, 5, generator=g, dtype=dtype).to(device), torch.randn(3, generator=g, dtype=dtype).to(device)
    torch.testing.assert_close(linear(u, W, b), F.linear(u, W, b))
    torch.testing.assert_close(linear(u, W), F.linear(u, W))
    torch.testing.assert_close(linear(u, W, None), F.linear(u, W, None))


def test_linear_is_eq_f6_on_a_column_vector():
    W, b, u = torch.tensor([[1., 2.], [0., -1.], [3., 0.]]), torch.tensor([1., 1., 1.]), torch.tensor([2., 5.])
    torch.testing.assert_close(linear(u, W, b), (W @ u[:, None]).squeeze(1) + b)  # v = W u + b


def test_ffnn_matches_a_pytorch_sequential_and_its_gradients():
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.Tanh(), torch.nn.Linear(3, 2)).double()
    u = torch.randn(6, 4, dtype=torch.float64)
    (first, _, second) = net
    mine = ffnn(u, first.weight, first.bias, second.weight, second.bias, activation=torch.tanh)
    torch.testing.assert_close(mine, net(u))
    grads = torch.autograd.grad(mine.square().sum(), list(net.parameters()))
    expected = torch.autograd.grad(net(u).square().sum(), list(net.parameters()))
    for g, e in zip(grads, expected):
        torch.testing.assert_close(g, e)
    assert torch.equal(ffnn(u, first.weight, first.bias, second.weight, second.bias),
                       second(torch.relu(first(u))))  # relu by default
