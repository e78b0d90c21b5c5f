"""Chapter 05's forbidden shortcuts (grading.student.rules) are caught by every route; honest gated cells pass."""
import pytest
import torch
from torch import nn

from grading.student.checks import ExerciseFailure, call


def in_notebook(fn):
    """Make ``fn`` look like a function written in a notebook cell."""
    fn.__module__ = "__main__"
    return fn


def _lstm_cell_module(x, h, c, W_ih, W_hh, b_ih, b_hh):
    cell = nn.LSTMCell(x.shape[1], h.shape[1])
    return cell(x, (h, c))


def _gru_cell_module(x, h, W_ih, W_hh, b_ih, b_hh):
    return nn.GRUCell(x.shape[1], h.shape[1])(x, h)


def _packed_lstm(x, mask, params):
    lstm = nn.LSTM(x.shape[2], params[1].shape[1], batch_first=True)
    outputs, (h, c) = lstm(x)
    return outputs, (h[0], c[0])


LSTM_ARGS = (torch.randn(2, 3), torch.randn(2, 4), torch.randn(2, 4), torch.randn(16, 3), torch.randn(16, 4),
             torch.randn(16), torch.randn(16))
GRU_ARGS = (torch.randn(2, 3), torch.randn(2, 4), torch.randn(12, 3), torch.randn(12, 4), torch.randn(12),
            torch.randn(12))
ENCODE_ARGS = (torch.randn(2, 5, 3), torch.ones(2, 5, dtype=torch.bool), LSTM_ARGS[3:])


@pytest.mark.parametrize("name, forbidden, args", [
    ("gate_update", lambda s, x, g: torch.lerp(s, x, g), (torch.zeros(3), torch.ones(3), torch.rand(3))),
    ("gate_update", lambda s, x, g: s.lerp(x, g), (torch.zeros(3), torch.ones(3), torch.rand(3))),
    ("lstm_step", lambda x, h, c, *w: torch.lstm_cell(x, (h, c), *w), LSTM_ARGS),
    ("lstm_step", lambda x, h, c, *w: torch._VF.lstm_cell(x, (h, c), *w), LSTM_ARGS),
    ("lstm_step", _lstm_cell_module, LSTM_ARGS),
    ("gru_step", lambda x, h, *w: torch.gru_cell(x, h, *w), GRU_ARGS),
    ("gru_step", lambda x, h, *w: torch._VF.gru_cell(x, h, *w), GRU_ARGS),
    ("gru_step", _gru_cell_module, GRU_ARGS),
    ("lstm_encode", _packed_lstm, ENCODE_ARGS),
    ("count_parameters", lambda kind, I, K: sum(p.numel() for p in nn.LSTM(I, K).parameters()), ("lstm", 3, 4)),
    ("count_parameters", lambda kind, I, K: sum(p.numel() for p in nn.GRUCell(I, K).parameters()), ("gru", 3, 4)),
], ids=lambda v: v if isinstance(v, str) else "")
def test_chapter_05_shortcuts_are_caught(name, forbidden, args):
    forbidden.__name__ = name
    with pytest.raises(ExerciseFailure, match=f"{name} used "):
        call(in_notebook(forbidden), *args)


def test_honest_gated_cells_pass():
    @in_notebook
    def lstm_step(x, h, c, W_ih, W_hh, b_ih, b_hh):
        i, f, g, o = (x @ W_ih.T + b_ih + h @ W_hh.T + b_hh).chunk(4, dim=-1)
        c_new = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        return torch.sigmoid(o) * torch.tanh(c_new), c_new

    @in_notebook
    def gate_update(s, x, g):
        return g * x + (1 - g) * s

    expected = torch.lstm_cell(LSTM_ARGS[0], LSTM_ARGS[1:3], *LSTM_ARGS[3:])
    torch.testing.assert_close(call(lstm_step, *LSTM_ARGS), expected)
    torch.testing.assert_close(call(gate_update, torch.zeros(2), torch.ones(2), torch.tensor([0.25, 1.0])),
                               torch.tensor([0.25, 1.0]))
