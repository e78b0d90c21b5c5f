"""Elman recurrent networks (Aziz F.10-F.12; Xiao Eq. 4.8): one step, and a masked pass over a padded batch.

    u_i = tanh(u_{i-1} R^T + e_i W^T + b)

``scan`` runs any step function along the time axis of a padded batch: on padding the
state is carried unchanged and the output is 0, so a padded row ends in the same state as
the row alone. The gated cells of ``seqmodels.layers.gated`` use it too.
"""
from collections.abc import Callable

import torch


def rnn_step(u_prev: torch.Tensor, e: torch.Tensor, R: torch.Tensor, W: torch.Tensor,
             b: torch.Tensor | None = None) -> torch.Tensor:
    """One Elman step: ``tanh(u_prev R^T + e W^T + b)``, shape ``[B, H]``."""
    pre = u_prev @ R.T + e @ W.T
    return torch.tanh(pre if b is None else pre + b)


State = torch.Tensor | tuple[torch.Tensor, ...]


def scan(step: Callable[[torch.Tensor, State], State], x: torch.Tensor, mask: torch.Tensor,
         state: State) -> tuple[torch.Tensor, State]:
    """Run ``state = step(x_i, state)`` for i = 1..L; outputs are the first state component (0 on padding)."""
    if x.dim() != 3 or mask.shape != x.shape[:2]:
        raise ValueError(f"expected x [B, L, I] and mask [B, L], got {tuple(x.shape)} and {tuple(mask.shape)}")
    outputs = []
    for i in range(x.shape[1]):
        real = mask[:, i].to(torch.bool).unsqueeze(-1)  # [B, 1]
        new = step(x[:, i], state)
        if isinstance(state, tuple):
            state = tuple(torch.where(real, n, s) for n, s in zip(new, state))
            outputs.append(torch.where(real, new[0], torch.zeros_like(new[0])))
        else:
            state = torch.where(real, new, state)
            outputs.append(torch.where(real, new, torch.zeros_like(new)))
    return torch.stack(outputs, dim=1), state


def rnn_encode(e: torch.Tensor, mask: torch.Tensor, u0: torch.Tensor, R: torch.Tensor, W: torch.Tensor,
               b: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """States ``[B, L, H]`` (0 on padding) and each row's state at its last real token, ``[B, H]``."""
    u = u0.expand(e.shape[0], -1).to(dtype=e.dtype, device=e.device)
    return scan(lambda e_i, u_prev: rnn_step(u_prev, e_i, R, W, b), e, mask, u)
