"""Gated recurrent cells (Aziz F.13; Xiao Sec. 4.3): LSTM and GRU steps in PyTorch's weight layout.

LSTM (gate order i, f, g, o as in ``torch.nn.LSTMCell``)::

    [i, f, g, o] = x W_ih^T + b_ih + h W_hh^T + b_hh
    c' = sigmoid(f) * c + sigmoid(i) * tanh(g),   h' = sigmoid(o) * tanh(c')

GRU (PyTorch's convention: the reset gate scales the recurrent term after its matmul)::

    r = sigmoid(x W_ir^T + b_ir + h W_hr^T + b_hr),  z = sigmoid(... W_iz ... W_hz ...)
    n = tanh(x W_in^T + b_in + r * (h W_hn^T + b_hn)),  h' = (1 - z) * n + z * h
"""
import torch

from seqmodels.layers.recurrent import scan


def gate_update(s: torch.Tensor, x: torch.Tensor, g: torch.Tensor) -> torch.Tensor:
    """The gated update ``g * x + (1 - g) * s``: g = 1 writes x, g = 0 keeps s."""
    return g * x + (1 - g) * s


def lstm_step(x, h, c, W_ih, W_hh, b_ih, b_hh) -> tuple[torch.Tensor, torch.Tensor]:
    """One LSTM step: ``(h', c')``, each ``[B, K]``."""
    i, f, g, o = (x @ W_ih.T + b_ih + h @ W_hh.T + b_hh).chunk(4, dim=-1)
    c_new = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
    return torch.sigmoid(o) * torch.tanh(c_new), c_new


def gru_step(x, h, W_ih, W_hh, b_ih, b_hh) -> torch.Tensor:
    """One GRU step: ``h'``, ``[B, K]``."""
    x_r, x_z, x_n = (x @ W_ih.T + b_ih).chunk(3, dim=-1)
    h_r, h_z, h_n = (h @ W_hh.T + b_hh).chunk(3, dim=-1)
    r, z = torch.sigmoid(x_r + h_r), torch.sigmoid(x_z + h_z)
    n = torch.tanh(x_n + r * h_n)
    return gate_update(n, h, z)  # z keeps the old state: (1 - z) * n + z * h


def lstm_encode(x: torch.Tensor, mask: torch.Tensor, params) -> tuple[torch.Tensor, tuple[torch.Tensor, torch.Tensor]]:
    """Outputs ``[B, L, K]`` (0 on padding) and ``(h_last, c_last)``, from zero states."""
    W_ih, W_hh, b_ih, b_hh = params
    zeros = x.new_zeros(x.shape[0], W_hh.shape[1])
    return scan(lambda x_i, hc: lstm_step(x_i, *hc, W_ih, W_hh, b_ih, b_hh), x, mask, (zeros, zeros))


def gru_encode(x: torch.Tensor, mask: torch.Tensor, params) -> tuple[torch.Tensor, torch.Tensor]:
    """Outputs ``[B, L, K]`` (0 on padding) and the last states ``[B, K]``, from a zero state."""
    W_ih, W_hh, b_ih, b_hh = params
    zeros = x.new_zeros(x.shape[0], W_hh.shape[1])
    return scan(lambda x_i, h: gru_step(x_i, h, W_ih, W_hh, b_ih, b_hh), x, mask, zeros)
