"""Recurrent cells against PyTorch's: nn.RNNCell, nn.LSTMCell, nn.GRUCell, and packed nn.LSTM / nn.GRU / nn.RNN."""
import pytest
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from seqmodels.layers.gated import gate_update, gru_encode, gru_step, lstm_encode, lstm_step
from seqmodels.layers.recurrent import rnn_encode, rnn_step
from seqmodels.text.batching import pad_batch



@pytest.fixture(autouse=True)
def float64():
    """Compare in float64, so that agreement means the same arithmetic, not luck within float32's noise."""
    previous = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    yield
    torch.set_default_dtype(previous)


def cell_weights(cell):
    return cell.weight_ih, cell.weight_hh, cell.bias_ih, cell.bias_hh


def test_rnn_step_matches_rnncell():
    cell = nn.RNNCell(3, 4)
    x, h = torch.randn(5, 3), torch.randn(5, 4)
    expected = cell(x, h)
    torch.testing.assert_close(rnn_step(h, x, cell.weight_hh, cell.weight_ih, cell.bias_ih + cell.bias_hh), expected)


def test_rnn_step_without_bias():
    R, W, u, e = torch.randn(2, 2), torch.randn(2, 3), torch.randn(1, 2), torch.randn(1, 3)
    torch.testing.assert_close(rnn_step(u, e, R, W), torch.tanh(u @ R.T + e @ W.T))


def test_lstm_and_gru_steps_match_pytorch_cells():
    lstm, gru = nn.LSTMCell(3, 4), nn.GRUCell(3, 4)
    x, h, c = torch.randn(5, 3), torch.randn(5, 4), torch.randn(5, 4)
    h_expected, c_expected = lstm(x, (h, c))
    h_new, c_new = lstm_step(x, h, c, *cell_weights(lstm))
    torch.testing.assert_close((h_new, c_new), (h_expected, c_expected))
    torch.testing.assert_close(gru_step(x, h, *cell_weights(gru)), gru(x, h))


def test_gate_update_writes_or_keeps():
    s, x = torch.zeros(3), torch.ones(3)
    torch.testing.assert_close(gate_update(s, x, torch.tensor([1.0, 0.0, 0.25])), torch.tensor([1.0, 0.0, 0.25]))


@pytest.mark.parametrize("kind", ["rnn", "lstm", "gru"])
def test_masked_encoders_match_packed_pytorch_layers(kind):
    torch.manual_seed(0)
    lengths = [5, 2, 4, 1]
    _, mask = pad_batch([[1] * n for n in lengths])
    x = torch.randn(len(lengths), max(lengths), 3)
    layer = {"rnn": nn.RNN, "lstm": nn.LSTM, "gru": nn.GRU}[kind](3, 4, batch_first=True)
    packed = pack_padded_sequence(x, torch.tensor(lengths), batch_first=True, enforce_sorted=False)
    out, last = layer(packed)
    expected, _ = pad_packed_sequence(out, batch_first=True, total_length=max(lengths))
    params = (layer.weight_ih_l0, layer.weight_hh_l0, layer.bias_ih_l0, layer.bias_hh_l0)
    if kind == "rnn":
        outputs, h_last = rnn_encode(x, mask, torch.zeros(4), layer.weight_hh_l0, layer.weight_ih_l0,
                                     layer.bias_ih_l0 + layer.bias_hh_l0)
        torch.testing.assert_close(h_last, last[0])
    elif kind == "lstm":
        outputs, (h_last, c_last) = lstm_encode(x, mask, params)
        torch.testing.assert_close((h_last, c_last), (last[0][0], last[1][0]))
    else:
        outputs, h_last = gru_encode(x, mask, params)
        torch.testing.assert_close(h_last, last[0])
    torch.testing.assert_close(outputs, expected)  # zeros on padding, like pad_packed_sequence


def test_padding_leaves_the_state_alone():
    R, W = torch.randn(2, 2), torch.randn(2, 3)
    e = torch.randn(1, 4, 3)
    alone, last_alone = rnn_encode(e[:, :2], torch.ones(1, 2, dtype=torch.bool), torch.zeros(2), R, W)
    padded, last_padded = rnn_encode(e, torch.tensor([[True, True, False, False]]), torch.zeros(2), R, W)
    torch.testing.assert_close(last_padded, last_alone)
    torch.testing.assert_close(padded[:, 2:], torch.zeros(1, 2, 2))


def test_rnn_encode_takes_the_initial_state_to_the_inputs_device_and_dtype(device):
    g = torch.Generator().manual_seed(5)
    e = torch.randn(2, 3, 4, dtype=torch.float64, generator=g).to(device)
    R, W = (torch.randn(5, n, dtype=torch.float64, generator=g).to(device) for n in (5, 4))
    mask = torch.ones(2, 3, dtype=torch.bool, device=device)
    outputs, last = rnn_encode(e, mask, torch.zeros(5), R, W)  # a float32 initial state on the CPU
    expected, _ = rnn_encode(e, mask, torch.zeros(5, dtype=torch.float64, device=device), R, W)
    assert outputs.device == e.device and outputs.dtype == torch.float64
    torch.testing.assert_close(outputs, expected)
