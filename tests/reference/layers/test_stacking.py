"""Layer stacking (Xiao Eqs. 4.14, 4.16) against nn.Sequential, a hand-written residual composition and a
two-layer nn.LSTM(bidirectional=True) on packed sequences."""
import pytest
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from seqmodels.layers.bidirectional import bilstm_encode
from seqmodels.layers.stacking import stack


def test_plain_stacking_is_nn_sequential():
    torch.manual_seed(0)
    layers = [nn.Sequential(nn.Linear(3, 5), nn.Tanh()), nn.Linear(5, 2), nn.ReLU()]
    x = torch.randn(4, 6, 3)
    torch.testing.assert_close(stack(x, list(layers), residual=False), nn.Sequential(*layers)(x))


def test_residual_stacking_adds_each_layers_input():
    torch.manual_seed(0)
    f, g = nn.Linear(3, 3), nn.Linear(3, 3)
    x = torch.randn(2, 5, 3)
    h1 = torch.tanh(f(x)) + x
    h2 = g(h1) + h1
    torch.testing.assert_close(stack(x, [lambda h: torch.tanh(f(h)), g], residual=True), h2)


def test_no_layers_is_the_identity_and_a_shape_change_cannot_be_residual():
    x = torch.randn(2, 3, 4)
    assert torch.equal(stack(x, [], residual=True), x)
    with pytest.raises(ValueError, match="keeps the shape"):
        stack(x, [nn.Linear(4, 2)], residual=True)


def test_two_stacked_bilstm_layers_are_a_two_layer_bidirectional_lstm():
    torch.manual_seed(0)
    lstm = nn.LSTM(3, 4, num_layers=2, batch_first=True, bidirectional=True).double()
    lengths = torch.tensor([5, 1, 3])
    x = torch.randn(3, 5, 3, dtype=torch.float64)
    packed, _ = lstm(pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False))
    expected, _ = pad_packed_sequence(packed, batch_first=True, total_length=5)

    def layer(k):
        def weights(suffix):
            names = ("weight_ih", "weight_hh", "bias_ih", "bias_hh")
            return tuple(getattr(lstm, f"{name}_l{k}{suffix}") for name in names)
        return lambda h: bilstm_encode(h, lengths, weights(""), weights("_reverse"))[0]

    torch.testing.assert_close(stack(x, [layer(0), layer(1)], residual=False), expected)
