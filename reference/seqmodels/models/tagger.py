"""A recurrent tagger (Aziz F.15-F.18): one label per token from a (bi)LSTM's outputs.

``bidirectional=True`` gives every position its right context too (o_i = [u_i, v_{l-i+1}]).
``hand_written`` runs ``lstm_encode`` / ``bilstm_encode`` on the layer's own weights instead
of PyTorch's (cuDNN) layer on the padded batch; the scores are the same.
"""
import torch
from torch import nn

from seqmodels.models.recurrent_layer import lstm_outputs


class Tagger(nn.Module):
    def __init__(self, vocab_size: int, dim: int, hidden: int, tags: int, *, bidirectional: bool = True,
                 hand_written: bool = False):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.lstm = nn.LSTM(dim, hidden, batch_first=True, bidirectional=bidirectional)
        self.out = nn.Linear(hidden * (2 if bidirectional else 1), tags)
        self.hand_written = hand_written

    def forward(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Tag scores ``[B, L, tags]`` (emissions, for a softmax or a CRF)."""
        return self.out(lstm_outputs(self.lstm, self.embedding(ids), mask.sum(dim=1), self.hand_written))
