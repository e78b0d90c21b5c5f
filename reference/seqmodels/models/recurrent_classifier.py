"""A recurrent acceptor (Aziz F.11): embed the tokens, run an Elman, LSTM or GRU layer, classify the last state.

``hand_written=True`` runs the course's masked step loops (``rnn_encode``, ``lstm_encode``,
``gru_encode``) on the PyTorch layer's own weights; otherwise the layer runs on a packed
sequence, which uses cuDNN's fused kernels on a GPU. Both give the same logits.
"""
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence

from seqmodels.layers.gated import gru_encode, lstm_encode
from seqmodels.layers.recurrent import rnn_encode

LAYERS = {"elman": nn.RNN, "lstm": nn.LSTM, "gru": nn.GRU}


class RecurrentClassifier(nn.Module):
    def __init__(self, vocab_size: int, dim: int, hidden: int, classes: int, *, cell: str = "lstm",
                 hand_written: bool = False):
        super().__init__()
        if cell not in LAYERS:
            raise ValueError(f"cell must be one of {sorted(LAYERS)}, got {cell!r}")
        self.embedding = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.rnn = LAYERS[cell](dim, hidden, batch_first=True)
        self.out = nn.Linear(hidden, classes)
        self.cell, self.hand_written = cell, hand_written
        if cell == "lstm":  # forget-gate bias 1: start by remembering (Jozefowicz et al., 2015)
            with torch.no_grad():
                hidden_slice = slice(hidden, 2 * hidden)  # gate order i, f, g, o
                self.rnn.bias_ih_l0[hidden_slice] = 1.0
                self.rnn.bias_hh_l0[hidden_slice] = 0.0

    def encode(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Each row's state after its last real token, ``[B, hidden]``."""
        x = self.embedding(ids)
        if self.hand_written:
            rnn = self.rnn
            if self.cell == "elman":
                zeros = x.new_zeros(rnn.hidden_size)
                return rnn_encode(x, mask, zeros, rnn.weight_hh_l0, rnn.weight_ih_l0, rnn.bias_ih_l0 + rnn.bias_hh_l0)[1]
            params = (rnn.weight_ih_l0, rnn.weight_hh_l0, rnn.bias_ih_l0, rnn.bias_hh_l0)
            if self.cell == "lstm":
                return lstm_encode(x, mask, params)[1][0]
            return gru_encode(x, mask, params)[1]
        lengths = mask.sum(dim=1).cpu()
        _, last = self.rnn(pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False))
        h = last[0] if self.cell == "lstm" else last
        return h[0]  # the only layer

    def forward(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return self.out(self.encode(ids, mask))
