"""A language model over words that reads each word through its characters (Xiao Sec. 4.5.4, Eqs. 4.86-4.87;
Kim et al., 2016): word vector x_i = max over characters of tanh(Conv(character embeddings)), filters of
several widths concatenated, then an LSTM and a softmax over the word vocabulary.

A word never seen in training still gets a vector from its spelling. ``hand_written=True`` runs the
course's ``conv1d_same`` and ``lstm_encode``; otherwise ``F.conv1d`` and cuDNN's LSTM on the padded batch. Same outputs.
``conv_fn`` / ``pool_fn`` (e.g. a student's) replace the spelling's convolution and pooling on either path.
"""
from collections.abc import Callable

import torch
from torch import nn

from seqmodels.layers.convolution import max_over_time
from seqmodels.models.filter_bank import FilterBank
from seqmodels.models.recurrent_layer import Recurrent
from seqmodels.training.losses import masked_cross_entropy


class CharCNNLM(nn.Module):
    def __init__(self, char_vocab_size: int, word_vocab_size: int, *, char_dim: int = 16, widths=(1, 3, 5),
                 filters: int = 32, hidden: int = 64, hand_written: bool = False, conv_fn: Callable | None = None,
                 pool_fn: Callable = max_over_time):
        super().__init__()
        self.chars = nn.Embedding(char_vocab_size, char_dim, padding_idx=0)  # [PAD] characters embed to 0
        self.spelling = FilterBank(char_dim, widths=widths, filters=filters, activation=torch.tanh,
                                   hand_written=hand_written, conv_fn=conv_fn, pool_fn=pool_fn)
        self.recurrent = Recurrent(self.spelling.size, hidden, cell="lstm", hand_written=hand_written)
        self.out = nn.Linear(hidden, word_vocab_size)

    def word_vectors(self, char_ids: torch.Tensor) -> torch.Tensor:
        """char_ids [B, L, C] (0 = [PAD]) -> x [B, L, F * len(widths)] (Eq. 4.87 for every word)."""
        B, L, C = char_ids.shape
        flat = char_ids.reshape(B * L, C)
        real = flat != 0
        real[:, 0] = True  # padding words have no characters; their vectors are masked out later
        return self.spelling(self.chars(flat), real).view(B, L, -1)

    def forward(self, char_ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Next-word logits ``[B, L, V]`` (Eq. 4.86: p(w_{i+1} | h_i))."""
        outputs, _ = self.recurrent(self.word_vectors(char_ids), mask)
        return self.out(outputs)

    def loss(self, char_ids: torch.Tensor, targets: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Mean negative log-likelihood per real target word."""
        return masked_cross_entropy(self(char_ids, mask), targets, mask)
