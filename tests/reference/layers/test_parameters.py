"""count_parameters against the parameters PyTorch's nn.RNN, nn.LSTM and nn.GRU really allocate."""
import pytest
from torch import nn

from seqmodels.layers.parameters import count_parameters

LAYERS = {"rnn": nn.RNN, "lstm": nn.LSTM, "gru": nn.GRU}


@pytest.mark.parametrize("kind", sorted(LAYERS))
@pytest.mark.parametrize("input_size, hidden_size", [(1, 1), (3, 4), (16, 32), (300, 7), (7, 300)])
def test_matches_pytorch_layers(kind, input_size, hidden_size):
    layer = LAYERS[kind](input_size, hidden_size)
    assert count_parameters(kind, input_size, hidden_size) == sum(p.numel() for p in layer.parameters())


def test_worked_numbers():
    # LSTM, I = 16, K = 32: 4 * (32*16 + 32*32 + 2*32) = 4 * 1600
    assert count_parameters("lstm", 16, 32) == 6400
    assert count_parameters("gru", 16, 32) == 4800
    assert count_parameters("rnn", 16, 32) == 1600


def test_unknown_kind():
    with pytest.raises(ValueError, match="kind"):
        count_parameters("transformer", 4, 4)
