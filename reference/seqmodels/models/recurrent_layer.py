"""One recurrent layer (Elman, LSTM or GRU) with two interchangeable implementations.

``hand_written=False``: PyTorch's layer (cuDNN's fused kernels on a GPU) on the padded batch as
it is, no packing. A forward direction only reads a row's padding *after* its real tokens, so
its outputs on real positions are already right: they are masked to 0 on padding and the last
state is gathered at each row's length. A backward direction reads each row reversed in place
(``reverse_padded``), so it too meets the padding only at the end. Nothing here reads a value
back from the GPU (packing needs the lengths on the host), so a GPU never waits on the CPU.

``hand_written=True``: the course's masked step loops (``rnn_encode``, ``lstm_encode``,
``gru_encode``, ``bilstm_encode``) on the same weights. Same outputs, same gradients. On a GPU,
``Recurrent.use_cuda_graphs()`` replays those loops from CUDA graphs (seqmodels.training.cuda_graphs).
"""
import torch
from torch import nn

from seqmodels.layers.bidirectional import bilstm_encode, reverse_padded
from seqmodels.layers.gated import gru_encode, lstm_encode
from seqmodels.layers.recurrent import rnn_encode
from seqmodels.training.cuda_graphs import BucketedGraphs

LAYERS = {"elman": nn.RNN, "lstm": nn.LSTM, "gru": nn.GRU}
_FUNCTIONAL = {"LSTM": torch.lstm, "GRU": torch.gru, "RNN_TANH": torch.rnn_tanh}  # the ops nn.LSTM/GRU/RNN call


def weights(rnn: nn.RNNBase, suffix: str = "") -> tuple[torch.Tensor, ...]:
    """``(W_ih, W_hh, b_ih, b_hh)`` of a one-layer PyTorch RNN (``suffix="_reverse"``: its backward direction)."""
    return tuple(getattr(rnn, f"{name}_l0{suffix}") for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"))


def length_mask(lengths: torch.Tensor, width: int) -> torch.Tensor:
    """``[B, width]``: True on each row's first ``lengths[b]`` positions."""
    return torch.arange(width, device=lengths.device) < lengths.unsqueeze(1)


def at_lengths(outputs: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    """Each row's output at its last real position: ``outputs [B, L, H]`` -> ``[B, H]``."""
    index = (lengths - 1).clamp(min=0).view(-1, 1, 1).expand(-1, 1, outputs.shape[-1])
    return outputs.gather(1, index).squeeze(1)


def one_direction(rnn: nn.RNNBase, x: torch.Tensor, suffix: str = "") -> torch.Tensor:
    """The outputs ``[B, L, H]`` of one direction of ``rnn`` (its ``suffix`` weights) over ``x``, from zero states."""
    zeros = x.new_zeros(1, x.shape[0], rnn.hidden_size)
    hx = (zeros, zeros) if rnn.mode == "LSTM" else zeros
    return _FUNCTIONAL[rnn.mode](x, hx, weights(rnn, suffix), True, 1, 0.0, rnn.training, False, True)[0]


def padded(rnn: nn.RNNBase, x: torch.Tensor, lengths: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Run a one-layer ``rnn`` on the padded batch ``x [B, L, I]``: outputs ``[B, L, H or 2H]`` (0 on
    padding) and each row's last state ``[B, H or 2H]`` (both directions' final states, as ``h_n``)."""
    lengths = lengths.to(x.device)
    real = length_mask(lengths, x.shape[1]).unsqueeze(-1)
    if not rnn.bidirectional:
        outputs, _ = rnn(x)
        return outputs.masked_fill(~real, 0.0), at_lengths(outputs, lengths)
    forward = one_direction(rnn, x)
    backward_reversed = one_direction(rnn, reverse_padded(x, lengths), "_reverse")  # read l..1 (Aziz F.15)
    outputs = torch.cat([forward, reverse_padded(backward_reversed, lengths)], dim=-1)
    last = torch.cat([at_lengths(forward, lengths), at_lengths(backward_reversed, lengths)], dim=-1)
    return outputs.masked_fill(~real, 0.0), last


def lstm_outputs(lstm: nn.LSTM, x: torch.Tensor, lengths: torch.Tensor, hand_written: bool) -> torch.Tensor:
    """The outputs of a one-layer (Bi)LSTM, ``[B, L, H or 2H]``, by the course's loops or PyTorch's layer."""
    if not hand_written:
        return padded(lstm, x, lengths)[0]
    if lstm.bidirectional:
        return bilstm_encode(x, lengths, weights(lstm), weights(lstm, "_reverse"))[0]
    return lstm_encode(x, length_mask(lengths.to(x.device), x.shape[1]), weights(lstm))[0]


class Recurrent(nn.Module):
    def __init__(self, input_size: int, hidden: int, *, cell: str = "lstm", hand_written: bool = False):
        super().__init__()
        if cell not in LAYERS:
            raise ValueError(f"cell must be one of {sorted(LAYERS)}, got {cell!r}")
        self.rnn = LAYERS[cell](input_size, hidden, batch_first=True)
        self.cell, self.hand_written = cell, hand_written
        self.graphs: BucketedGraphs | None = None
        if cell == "lstm":  # forget-gate bias 1: start by remembering (Jozefowicz et al., 2015)
            with torch.no_grad():
                self.rnn.bias_ih_l0[hidden:2 * hidden] = 1.0  # gate order i, f, g, o
                self.rnn.bias_hh_l0[hidden:2 * hidden] = 0.0

    def use_cuda_graphs(self, bucket: int = 32) -> None:
        """Train the hand-written path from CUDA graphs (lengths padded to a multiple of ``bucket``)."""
        self.graphs = BucketedGraphs(self.hand_written_forward, list(self.parameters()), bucket)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Outputs ``[B, L, H]`` (0 on padding) and each row's last state ``[B, H]``."""
        if not self.hand_written:
            return padded(self.rnn, x, mask.sum(dim=1))
        if self.graphs is not None and x.is_cuda and torch.is_grad_enabled():
            return self.graphs(x, mask)
        return self.hand_written_forward(x, mask)

    def hand_written_forward(self, x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        rnn = self.rnn
        if self.cell == "elman":
            return rnn_encode(x, mask, x.new_zeros(rnn.hidden_size), rnn.weight_hh_l0, rnn.weight_ih_l0,
                              rnn.bias_ih_l0 + rnn.bias_hh_l0)
        if self.cell == "lstm":
            outputs, (h, _) = lstm_encode(x, mask, weights(rnn))
            return outputs, h
        return gru_encode(x, mask, weights(rnn))
