"""The BiLSTM encoder against nn.LSTM(bidirectional=True) on packed sequences; reversal of padded rows."""
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from seqmodels.layers.bidirectional import bilstm_encode, reverse_padded


def test_reverse_padded_reverses_only_the_real_prefix():
    x = torch.tensor([[1, 2, 3, 0], [4, 5, 0, 0], [6, 7, 8, 9]]).unsqueeze(-1)
    expected = torch.tensor([[3, 2, 1, 0], [5, 4, 0, 0], [9, 8, 7, 6]]).unsqueeze(-1)
    assert torch.equal(reverse_padded(x, torch.tensor([3, 2, 4])), expected)
    assert torch.equal(reverse_padded(reverse_padded(x, torch.tensor([3, 2, 4])), torch.tensor([3, 2, 4])), x)


def test_bilstm_encode_matches_pytorch_bidirectional_lstm():
    torch.manual_seed(0)
    lstm = nn.LSTM(3, 4, batch_first=True, bidirectional=True).double()
    lengths = torch.tensor([5, 2, 4, 1])
    x = torch.randn(4, 5, 3, dtype=torch.float64)
    packed, (h, _) = lstm(pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False))
    expected, _ = pad_packed_sequence(packed, batch_first=True, total_length=5)
    fwd = (lstm.weight_ih_l0, lstm.weight_hh_l0, lstm.bias_ih_l0, lstm.bias_hh_l0)
    bwd = (lstm.weight_ih_l0_reverse, lstm.weight_hh_l0_reverse, lstm.bias_ih_l0_reverse, lstm.bias_hh_l0_reverse)
    o, z = bilstm_encode(x, lengths, fwd, bwd)
    torch.testing.assert_close(o, expected)
    torch.testing.assert_close(z, torch.cat([h[0], h[1]], dim=-1))


def test_bilstm_encode_batch_one_length_one_and_float32():
    torch.manual_seed(1)
    lstm = nn.LSTM(2, 3, batch_first=True, bidirectional=True)
    fwd = (lstm.weight_ih_l0, lstm.weight_hh_l0, lstm.bias_ih_l0, lstm.bias_hh_l0)
    bwd = (lstm.weight_ih_l0_reverse, lstm.weight_hh_l0_reverse, lstm.bias_ih_l0_reverse, lstm.bias_hh_l0_reverse)
    for lengths, L in [(torch.tensor([1]), 1), (torch.tensor([3]), 3), (torch.tensor([1, 1]), 1)]:
        x = torch.randn(len(lengths), L, 2)
        expected, (h, _) = lstm(x)  # no padding: the plain call is the packed one
        o, z = bilstm_encode(x, lengths, fwd, bwd)
        torch.testing.assert_close(o, expected)
        torch.testing.assert_close(z, torch.cat([h[0], h[1]], dim=-1))
