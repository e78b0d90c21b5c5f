"""The padded fast path against PyTorch's packed sequences (the oracle): same outputs on real positions,
same last states, same gradients, for every cell and for both directions of a BiLSTM."""
import pytest
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from seqmodels.models.recurrent_layer import LAYERS, padded

LENGTHS = [5, 1, 3, 5, 2]


def packed_oracle(rnn: nn.RNNBase, x: torch.Tensor, lengths: list[int]):
    out, last = rnn(pack_padded_sequence(x, torch.tensor(lengths), batch_first=True, enforce_sorted=False))
    outputs, _ = pad_packed_sequence(out, batch_first=True, total_length=x.shape[1])
    h = last[0] if isinstance(last, tuple) else last  # [directions, B, H]
    return outputs, torch.cat(list(h), dim=-1)


@pytest.mark.parametrize("cell,bidirectional", [("elman", False), ("lstm", False), ("gru", False),
                                                ("lstm", True), ("gru", True), ("elman", True)])
def test_padded_path_matches_packed_sequences(cell, bidirectional, device):
    torch.manual_seed(0)
    rnn = LAYERS[cell](3, 4, batch_first=True, bidirectional=bidirectional).double().to(device)
    x = torch.randn(len(LENGTHS), max(LENGTHS), 3, dtype=torch.float64, device=device)
    x = x.masked_fill(~(torch.arange(5, device=device) < torch.tensor(LENGTHS, device=device)[:, None])[..., None],
                      7.0)  # garbage under padding must not matter
    results = []
    for run in (lambda inputs: packed_oracle(rnn, inputs, LENGTHS),
                lambda inputs: padded(rnn, inputs, torch.tensor(LENGTHS))):
        rnn.zero_grad()
        inputs = x.clone().requires_grad_(True)
        outputs, last = run(inputs)
        (outputs.square().sum() + last.sin().sum()).backward()
        results.append((outputs.detach(), last.detach(), inputs.grad, [p.grad.clone() for p in rnn.parameters()]))
    (want_out, want_last, want_dx, want_dp), (out, last, dx, dp) = results
    torch.testing.assert_close(out, want_out)  # 0 on padding in both
    torch.testing.assert_close(last, want_last)
    torch.testing.assert_close(dx, want_dx)  # 0 under padding in both
    for got, want in zip(dp, want_dp, strict=True):
        torch.testing.assert_close(got, want)


def test_padded_path_reads_no_value_back_from_the_device():
    """Lengths stay where the mask is: no .cpu()/.item()/.tolist() (which makes a GPU wait)."""
    rnn = nn.LSTM(3, 4, batch_first=True, bidirectional=True)
    x, lengths = torch.randn(2, 4, 3), torch.tensor([4, 2])
    forbidden = ("cpu", "item", "tolist", "__int__", "__bool__")
    original = {name: getattr(torch.Tensor, name) for name in forbidden}

    def refuse(name):
        def method(self, *args, **kwargs):
            raise AssertionError(f"padded() called Tensor.{name}")
        return method

    try:
        for name in forbidden:
            setattr(torch.Tensor, name, refuse(name))
        padded(rnn, x, lengths)
    finally:
        for name, method in original.items():
            setattr(torch.Tensor, name, method)
