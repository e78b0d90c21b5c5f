"""One recurrent layer (Elman, LSTM or GRU) with two interchangeable implementations.

``hand_written=False``: PyTorch's layer on a packed sequence (cuDNN's fused kernels on a
GPU). ``hand_written=True``: the course's masked step loops (``rnn_encode``,
``lstm_encode``, ``gru_encode``) on the same weights. Same outputs, same gradients.
"""
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from seqmodels.layers.bidirectional import bilstm_encode
from seqmodels.layers.gated import gru_encode, lstm_encode
from seqmodels.layers.recurrent import rnn_encode

LAYERS = {"elman": nn.RNN, "lstm": nn.LSTM, "gru": nn.GRU}


def weights(rnn: nn.RNNBase, suffix: str = "") -> tuple[torch.Tensor, ...]:
    """``(W_ih, W_hh, b_ih, b_hh)`` of a one-layer PyTorch RNN (``suffix="_reverse"``: its backward direction)."""
    return tuple(getattr(rnn, f"{name}_l0{suffix}") for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"))


def packed(rnn: nn.RNNBase, x: torch.Tensor, lengths: torch.Tensor):
    """Run ``rnn`` on the padded batch ``x`` as a packed sequence: (outputs ``[B, L, H]``, 0 on padding; last state)."""
    out, last = rnn(pack_padded_sequence(x, lengths.cpu(), batch_first=True, enforce_sorted=False))
    outputs, _ = pad_packed_sequence(out, batch_first=True, total_length=x.shape[1])
    return outputs, last


def lstm_outputs(lstm: nn.LSTM, x: torch.Tensor, lengths: torch.Tensor, hand_written: bool) -> torch.Tensor:
    """The outputs of a one-layer (Bi)LSTM, ``[B, L, H or 2H]``, by the course's loops or PyTorch's packed path."""
    if not hand_written:
        return packed(lstm, x, lengths)[0]
    if lstm.bidirectional:
        return bilstm_encode(x, lengths, weights(lstm), weights(lstm, "_reverse"))[0]
    mask = torch.arange(x.shape[1], device=x.device) < lengths.to(x.device).unsqueeze(1)
    return lstm_encode(x, mask, weights(lstm))[0]


class Recurrent(nn.Module):
    def __init__(self, input_size: int, hidden: int, *, cell: str = "lstm", hand_written: bool = False):
        super().__init__()
        if cell not in LAYERS:
            raise ValueError(f"cell must be one of {sorted(LAYERS)}, got {cell!r}")
        self.rnn = LAYERS[cell](input_size, hidden, batch_first=True)
        self.cell, self.hand_written = cell, hand_written
        if cell == "lstm":  # forget-gate bias 1: start by remembering (Jozefowicz et al., 2015)
            with torch.no_grad():
                self.rnn.bias_ih_l0[hidden:2 * hidden] = 1.0  # gate order i, f, g, o
                self.rnn.bias_hh_l0[hidden:2 * hidden] = 0.0

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Outputs ``[B, L, H]`` (0 on padding) and each row's last state ``[B, H]``."""
        rnn = self.rnn
        if self.hand_written and self.cell == "elman":
            return rnn_encode(x, mask, x.new_zeros(rnn.hidden_size), rnn.weight_hh_l0, rnn.weight_ih_l0,
                              rnn.bias_ih_l0 + rnn.bias_hh_l0)
        if self.hand_written and self.cell == "lstm":
            outputs, (h, _) = lstm_encode(x, mask, weights(rnn))
            return outputs, h
        if self.hand_written:
            return gru_encode(x, mask, weights(rnn))
        outputs, last = packed(rnn, x, mask.sum(dim=1))
        return outputs, (last[0] if self.cell == "lstm" else last)[0]
