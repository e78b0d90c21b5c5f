"""Linear maps and the two-layer feed-forward network (Aziz F.6, F.8)."""
from collections.abc import Callable

import torch


def linear(u: torch.Tensor, W: torch.Tensor, b: torch.Tensor | None = None) -> torch.Tensor:
    """v = W u + b for every vector u in ``u [..., I]``, with ``W [O, I]`` and ``b [O]``: ``[..., O]`` (Eq. F.6).

    Row vectors, like ``torch.nn.Linear``: a batch ``[B, I]`` is multiplied by ``W``'s transpose.
    """
    v = u @ W.transpose(0, 1)
    return v if b is None else v + b


def ffnn(u: torch.Tensor, W1: torch.Tensor, b1: torch.Tensor | None, W2: torch.Tensor, b2: torch.Tensor | None,
         activation: Callable[[torch.Tensor], torch.Tensor] = torch.relu) -> torch.Tensor:
    """h = a(linear_H(u; W1, b1)) (Eq. F.8a), then v = linear_O(h; W2, b2) (Eq. F.8b): ``[..., O]``."""
    return linear(activation(linear(u, W1, b1)), W2, b2)
