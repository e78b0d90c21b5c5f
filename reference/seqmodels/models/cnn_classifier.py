"""A Kim-style CNN text classifier (Kim, 2014; Xiao Sec. 4.4.2): filters of several widths over the word
vectors, ReLU, max over time, concatenation, a linear layer. Unlike averaging, it sees word order
within each window ("not good").

``hand_written``, ``conv_fn`` and ``pool_fn`` as in seqmodels.models.filter_bank. Same scores.
"""
from collections.abc import Callable

import torch
from torch import nn

from seqmodels.layers.convolution import max_over_time
from seqmodels.models.filter_bank import FilterBank


class CNNClassifier(nn.Module):
    def __init__(self, vocab_size: int, dim: int, classes: int, *, widths=(1, 3, 5), filters: int = 32,
                 hand_written: bool = False, conv_fn: Callable | None = None, pool_fn: Callable = max_over_time):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.features = FilterBank(dim, widths=widths, filters=filters, activation=torch.relu,
                                   hand_written=hand_written, conv_fn=conv_fn, pool_fn=pool_fn)
        self.out = nn.Linear(self.features.size, classes)

    def forward(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return self.out(self.features(self.embedding(ids), mask))
