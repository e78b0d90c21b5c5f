"""Gradient clipping by the global norm (Xiao Eq. 4.13).

All gradients are treated as one long vector g; if its Euclidean norm exceeds tau, every gradient is
scaled by the same factor, so the direction of the update is kept and only its length is capped:

    g <- tau / max(tau, ||g||) * g
"""
import torch


def clip_grad_norm(grads: list[torch.Tensor], tau: float) -> list[torch.Tensor]:
    """New tensors ``g * tau / max(tau, ||g||)`` with ``||g||`` the norm of all ``grads`` together (the
    inputs are not modified)."""
    if not grads:
        return []
    total = torch.sqrt(sum((g.detach().double() ** 2).sum().to(grads[0].device) for g in grads))
    scale = tau / torch.clamp(total, min=tau)  # Xiao Eq. (4.13)
    return [g * scale.to(g.dtype) for g in grads]
