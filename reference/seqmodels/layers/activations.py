"""Numerically stable activation functions (Aziz F.3; the sigmoid with Aziz's sign erratum fixed).

Each is written so that no intermediate overflows: inputs of +-1000 give exact limits
and finite gradients, in float32 and float64.
"""
import torch


def _exp_of_minus_abs(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(x >= 0, exp(-abs(x))): the branch taken and a z in (0, 1]; built with where, not abs, so that x = 0
    gets the one-sided derivative of the branch it takes instead of abs's subgradient 0."""
    nonnegative = x >= 0
    return nonnegative, torch.exp(torch.where(nonnegative, -x, x))


def sigmoid(x: torch.Tensor) -> torch.Tensor:
    """1 / (1 + exp(-x)) elementwise: 1/(1+z) for x >= 0 and z/(1+z) below, z = exp(-abs(x)) <= 1."""
    nonnegative, z = _exp_of_minus_abs(x)
    return torch.where(nonnegative, 1 / (1 + z), z / (1 + z))


def softplus(x: torch.Tensor) -> torch.Tensor:
    """log(1 + exp(x)) elementwise, as max(x, 0) + log(1 + exp(-abs(x))), whose exp never exceeds 1."""
    nonnegative, z = _exp_of_minus_abs(x)
    return torch.where(nonnegative, x, torch.zeros_like(x)) + torch.log1p(z)


def log_softmax(x: torch.Tensor, dim: int = -1) -> torch.Tensor:
    """x_d - log sum_k exp(x_k) along ``dim``; the maximum is taken out first so that exp stays <= 1."""
    shifted = x - x.amax(dim=dim, keepdim=True).detach()  # any constant shift gives the same result
    return shifted - torch.log(torch.exp(shifted).sum(dim=dim, keepdim=True))


def softmax(x: torch.Tensor, dim: int = -1) -> torch.Tensor:
    """exp(x_d) / sum_k exp(x_k) along ``dim``, computed after subtracting the maximum."""
    e = torch.exp(x - x.amax(dim=dim, keepdim=True).detach())
    return e / e.sum(dim=dim, keepdim=True)
