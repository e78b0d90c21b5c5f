"""A recurrent acceptor (Aziz F.11): embed the tokens, run an Elman, LSTM or GRU layer, classify the last state.

``hand_written`` switches the recurrent layer between the course's step loops and PyTorch's
padded (cuDNN) path; both give the same logits (seqmodels.models.recurrent_layer).
"""
import torch
from torch import nn

from seqmodels.models.recurrent_layer import Recurrent


class RecurrentClassifier(nn.Module):
    def __init__(self, vocab_size: int, dim: int, hidden: int, classes: int, *, cell: str = "lstm",
                 hand_written: bool = False):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.recurrent = Recurrent(dim, hidden, cell=cell, hand_written=hand_written)
        self.out = nn.Linear(hidden, classes)

    def forward(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        _, last = self.recurrent(self.embedding(ids), mask)
        return self.out(last)
