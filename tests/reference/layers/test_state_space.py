"""discretize against zero-order hold's closed form and the Euler limit; ssm_kernel against hand numbers (the
chapter's two-state example) and against running the recurrence with constant Ā, B̄, C in float64."""
import math

import pytest
import torch

from seqmodels.layers.state_space import discretize, ssm_kernel


def test_discretize_by_hand():
    # Δ = ln 2: exp(−ln 2) = 1/2, exp(−2 ln 2) = 1/4; B̄ = (Ā − 1)/A · B = (−1/2)/(−1) = 1/2 and (−3/4)/(−2) = 3/8
    A_bar, B_bar = discretize(torch.tensor([[-1.0, -2.0]]), torch.tensor([[1.0, 1.0]]), torch.tensor([math.log(2)]))
    torch.testing.assert_close(A_bar, torch.tensor([[0.5, 0.25]]))
    torch.testing.assert_close(B_bar, torch.tensor([[0.5, 0.375]]))


@pytest.mark.parametrize(("dtype", "rtol"), [(torch.float32, 1e-5), (torch.float64, 1e-12)])
def test_discretize_is_accurate_for_tiny_and_large_steps(dtype, rtol, device):
    """Every element within the syllabus's relative tolerance for |ΔA| from 1e−12 to 10, against the exact answer
    for the inputs as given in ``dtype``, worked out in float64: its series ΔB (1 + ΔA/2 + (ΔA)²/6 + (ΔA)³/24)
    where |ΔA| < 1e−3 (exact to double precision there), expm1 elsewhere."""
    A = -torch.linspace(0.5, 3.0, 27, dtype=torch.float64)[:, None] * torch.tensor([1.0, 2.0], dtype=torch.float64)
    delta = torch.logspace(-12, 1, 27, dtype=torch.float64) / 2.0 / torch.linspace(0.5, 3.0, 27, dtype=torch.float64)
    B = torch.linspace(-2, 2, 54, dtype=torch.float64).reshape(27, 2)
    A, B, delta = (t.to(dtype) for t in (A, B, delta))
    A_bar, B_bar = discretize(A.to(device), B.to(device), delta.to(device))
    A, B, delta = (t.double() for t in (A, B, delta))
    x = delta[:, None] * A
    series = delta[:, None] * B * (1 + x / 2 + x * x / 6 + x**3 / 24)
    exact = torch.where(x.abs() < 1e-3, series, torch.expm1(x) / A * B)
    assert A_bar.dtype == B_bar.dtype == dtype
    torch.testing.assert_close(B_bar.cpu().double(), exact, rtol=rtol, atol=0.0)
    torch.testing.assert_close(A_bar.cpu().double(), torch.exp(x), rtol=rtol, atol=0.0)


def test_kernel_of_the_two_state_example_by_hand():
    # K_k = 2·(1/2)^k + 2·(1/4)^k: 4, 1.5, 0.625, 0.28125
    K = ssm_kernel(torch.tensor([[0.5, 0.25]]), torch.tensor([[1.0, 2.0]]), torch.tensor([[2.0, 1.0]]), 4)
    assert torch.equal(K, torch.tensor([[4.0, 1.5, 0.625, 0.28125]]))


def test_kernel_convolution_equals_the_float64_recurrence(device):
    g = torch.Generator().manual_seed(0)
    D, N, L = 3, 4, 9
    A_bar, B_bar, C = torch.rand(D, N, generator=g, dtype=torch.float64), *torch.randn(2, D, N, generator=g,
                                                                                     dtype=torch.float64)
    u = torch.randn(L, D, generator=g, dtype=torch.float64)
    h, expected = torch.zeros(D, N, dtype=torch.float64), []
    for t in range(L):
        h = A_bar * h + B_bar * u[t, :, None]
        expected.append((C * h).sum(-1))
    K = ssm_kernel(A_bar.to(device), B_bar.to(device), C.to(device), L).cpu()
    convolved = torch.stack([sum(K[:, k] * u[t - k] for k in range(t + 1)) for t in range(L)])
    torch.testing.assert_close(convolved, torch.stack(expected))


def test_kernel_gradients():
    g = torch.Generator().manual_seed(1)
    inputs = (torch.rand(2, 3, generator=g, dtype=torch.float64).requires_grad_(),
              *(torch.randn(2, 3, generator=g, dtype=torch.float64).requires_grad_() for _ in range(2)))
    assert torch.autograd.gradcheck(lambda a, b, c: ssm_kernel(a, b, c, 5), inputs)
