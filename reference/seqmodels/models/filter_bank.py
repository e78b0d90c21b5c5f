"""Convolution filters of several widths, each followed by a nonlinearity and max over time, concatenated
(Kim, 2014; Xiao Secs. 4.4.2 and 4.5.4): the feature extractor of the CNN classifier and of the char-CNN.

``hand_written=True`` uses the course's ``conv1d_same``; otherwise ``F.conv1d``. Same features.
``conv_fn`` / ``pool_fn`` (e.g. a student's ``conv1d_same`` / ``max_over_time``) replace the convolution and
the pooling on either path.
"""
from collections.abc import Callable

import torch
from torch import nn
from torch.nn import functional as F

from seqmodels.layers.convolution import conv1d_same, max_over_time


class FilterBank(nn.Module):
    def __init__(self, dim: int, *, widths=(1, 3, 5), filters: int = 32,
                 activation: Callable[[torch.Tensor], torch.Tensor] = torch.relu, hand_written: bool = False,
                 conv_fn: Callable | None = None, pool_fn: Callable = max_over_time):
        super().__init__()
        self.filters = nn.ParameterList([nn.Parameter(torch.randn(filters, r, dim) / (r * dim) ** 0.5) for r in widths])
        self.biases = nn.ParameterList([nn.Parameter(torch.zeros(filters)) for _ in widths])
        self.activation, self.hand_written = activation, hand_written
        self.conv_fn, self.pool_fn = conv_fn, pool_fn
        self.size = filters * len(widths)

    def _convolve(self, x: torch.Tensor, filters: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        if self.conv_fn is not None:
            return self.conv_fn(x, filters, bias)
        if self.hand_written:
            return conv1d_same(x, filters, bias)
        return F.conv1d(x.transpose(1, 2), filters.transpose(1, 2), bias,
                        padding=(filters.shape[1] - 1) // 2).transpose(1, 2)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """x [B, L, D], mask [B, L] -> [B, filters * len(widths)]."""
        return torch.cat([self.pool_fn(self.activation(self._convolve(x, f, b)), mask)
                          for f, b in zip(self.filters, self.biases)], dim=-1)
