"""Deep recurrent networks by layer stacking, with optional residual connections (Xiao Sec. 4.2.3).

A layer maps a sequence of vectors to a sequence of the same length (a whole RNN, LSTM or BiLSTM
pass, for instance). Stacking feeds each layer's outputs to the next, with ``h^0 = x``::

    h^{l+1} = layer_l(h^l)            (Eq. 4.14)
    h^{l+1} = layer_l(h^l) + h^l      (Eq. 4.16, residual)
"""
from collections.abc import Callable

import torch


def stack(x: torch.Tensor, layers: list[Callable[[torch.Tensor], torch.Tensor]], residual: bool) -> torch.Tensor:
    """The top layer's outputs ``h^N`` of ``layers`` applied in order to ``x`` (no layers: ``x`` itself)."""
    h = x
    for layer in layers:
        out = layer(h)
        if residual and out.shape != h.shape:
            raise ValueError(f"a residual connection needs a layer that keeps the shape {tuple(h.shape)}, "
                             f"got {tuple(out.shape)}")
        h = out + h if residual else out  # Eq. 4.16 / Eq. 4.14
    return h
