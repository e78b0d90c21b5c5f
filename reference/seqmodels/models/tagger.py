"""A recurrent tagger (Aziz F.15-F.18): one label per token from a (bi)LSTM's outputs.

``bidirectional=True`` gives every position its right context too (o_i = [u_i, v_{l-i+1}]).
``hand_written`` runs ``lstm_encode`` / ``bilstm_encode`` on the layer's own weights instead
of PyTorch's packed (cuDNN) path; the scores are the same.
"""
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from seqmodels.layers.bidirectional import bilstm_encode
from seqmodels.layers.gated import lstm_encode


class Tagger(nn.Module):
    def __init__(self, vocab_size: int, dim: int, hidden: int, tags: int, *, bidirectional: bool = True,
                 hand_written: bool = False):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.lstm = nn.LSTM(dim, hidden, batch_first=True, bidirectional=bidirectional)
        self.out = nn.Linear(hidden * (2 if bidirectional else 1), tags)
        self.hand_written = hand_written

    def _params(self, suffix: str = "") -> tuple[torch.Tensor, ...]:
        return tuple(getattr(self.lstm, f"{name}_l0{suffix}") for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"))

    def forward(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Tag scores ``[B, L, tags]`` (emissions, for a softmax or a CRF)."""
        x, lengths = self.embedding(ids), mask.sum(dim=1)
        if not self.hand_written:
            packed, _ = self.lstm(pack_padded_sequence(x, lengths.cpu(), batch_first=True, enforce_sorted=False))
            outputs, _ = pad_packed_sequence(packed, batch_first=True, total_length=ids.shape[1])
        elif self.lstm.bidirectional:
            outputs, _ = bilstm_encode(x, lengths, self._params(), self._params("_reverse"))
        else:
            outputs, _ = lstm_encode(x, mask, self._params())
        return self.out(outputs)
