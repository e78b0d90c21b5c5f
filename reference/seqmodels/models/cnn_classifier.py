"""A Kim-style CNN text classifier (Kim, 2014; Xiao Sec. 4.4.2): filters of several widths over the word
vectors, ReLU, max over time, concatenation, a linear layer. Unlike averaging, it sees word order
within each window ("not good").

``hand_written=True`` uses the course's ``conv1d_same``; otherwise ``F.conv1d``. Same scores.
"""
import torch
from torch import nn
from torch.nn import functional as F

from seqmodels.layers.convolution import conv1d_same, max_over_time


class CNNClassifier(nn.Module):
    def __init__(self, vocab_size: int, dim: int, classes: int, *, widths=(1, 3, 5), filters: int = 32,
                 hand_written: bool = False):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.filters = nn.ParameterList([nn.Parameter(torch.randn(filters, r, dim) / (r * dim) ** 0.5) for r in widths])
        self.biases = nn.ParameterList([nn.Parameter(torch.zeros(filters)) for _ in widths])
        self.out = nn.Linear(filters * len(widths), classes)
        self.hand_written = hand_written

    def _convolve(self, x: torch.Tensor, filters: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        if self.hand_written:
            return conv1d_same(x, filters, bias)
        r = filters.shape[1]
        return F.conv1d(x.transpose(1, 2), filters.transpose(1, 2), bias, padding=(r - 1) // 2).transpose(1, 2)

    def forward(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        x = self.embedding(ids)
        pooled = [max_over_time(torch.relu(self._convolve(x, f, b)), mask) for f, b in zip(self.filters, self.biases)]
        return self.out(torch.cat(pooled, dim=-1))
