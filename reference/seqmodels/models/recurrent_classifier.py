"""A recurrent acceptor (Aziz F.11): embed the tokens, run an Elman, LSTM or GRU layer, classify the last state.

``hand_written`` switches the recurrent layer between the course's step loops and PyTorch's
padded (cuDNN) path; both give the same logits (seqmodels.models.recurrent_layer).

``dropout = p`` regularises (chapter 05): while training, every entry of the word vectors that enter
the recurrent layer and of the last state that leaves it is zeroed with probability p and the others
are scaled by 1 / (1 - p), so that their expected value is unchanged; in ``eval()`` mode nothing is
dropped. The connection from one step to the next is left alone (Zaremba et al., 2014): masking the
state at every step would compound over the sequence and erase what the layer is meant to carry. With
p = 0 (the default) the model is exactly the one without dropout.
"""
import torch
from torch import nn

from seqmodels.models.recurrent_layer import Recurrent


class RecurrentClassifier(nn.Module):
    def __init__(self, vocab_size: int, dim: int, hidden: int, classes: int, *, cell: str = "lstm",
                 hand_written: bool = False, dropout: float = 0.0):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.recurrent = Recurrent(dim, hidden, cell=cell, hand_written=hand_written)
        self.dropout = nn.Dropout(dropout)
        self.out = nn.Linear(hidden, classes)

    def forward(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        _, last = self.recurrent(self.dropout(self.embedding(ids)), mask)
        return self.out(self.dropout(last))
