"""A recurrent language model (Aziz F.12; Xiao Sec. 4.2.2): predict token i+1 from the state after token i.

    u_i = RNN(u_{i-1}, E[t_i]),   p(t_{i+1} | t_<=i) = softmax(W u_i + b)

Character-level in the course's demos; ``hand_written`` as in seqmodels.models.recurrent_layer;
``dropout`` on the inputs and outputs of the recurrent layer, never between its steps, as in
seqmodels.models.recurrent_classifier.
"""
import torch
from torch import nn

from seqmodels.models.recurrent_layer import Recurrent
from seqmodels.training.losses import masked_cross_entropy


class RecurrentLM(nn.Module):
    def __init__(self, vocab_size: int, dim: int, hidden: int, *, cell: str = "lstm", hand_written: bool = False,
                 dropout: float = 0.0):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, dim)
        self.recurrent = Recurrent(dim, hidden, cell=cell, hand_written=hand_written)
        self.dropout = nn.Dropout(dropout)
        self.out = nn.Linear(hidden, vocab_size)

    def forward(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Next-token logits ``[B, L, V]``."""
        outputs, _ = self.recurrent(self.dropout(self.embedding(ids)), mask)
        return self.out(self.dropout(outputs))

    def loss(self, inputs: torch.Tensor, targets: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Mean negative log-likelihood per real target token (padding ignored)."""
        return masked_cross_entropy(self(inputs, mask), targets, mask)
