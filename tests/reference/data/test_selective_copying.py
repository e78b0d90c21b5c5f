"""Selective copying's definition, checked sequence by sequence with Python loops on tiny cases."""
import pytest
import torch

from seqmodels.data.selective_copying import COPY, FILLER, IGNORE, selective_copying, vocabulary_size


@pytest.mark.parametrize("length, tokens, symbols, seed", [(6, 1, 2, 0), (8, 3, 4, 1), (5, 5, 3, 2), (40, 4, 8, 3)])
def test_each_target_is_the_next_data_token_in_order(length, tokens, symbols, seed):
    inputs, targets = selective_copying(50, length, tokens, symbols, seed)
    assert inputs.shape == targets.shape == (50, length + tokens)
    for row, target in zip(inputs.tolist(), targets.tolist()):
        data = [token for token in row[:length] if token != FILLER]  # the data tokens, read left to right
        assert len(data) == tokens, f"{row}: expected {tokens} data tokens among the first {length}"
        assert all(2 <= token < vocabulary_size(symbols) for token in data), row
        assert row[length:] == [COPY] * tokens, row
        assert target[:length] == [IGNORE] * length and target[length:] == data, (row, target)


def test_the_places_and_symbols_vary_and_the_seed_fixes_them():
    inputs, _ = selective_copying(400, 6, 2, 3, seed=5)
    places = {tuple(i for i, token in enumerate(row[:6]) if token != FILLER) for row in inputs.tolist()}
    assert len(places) == 15, f"expected all C(6, 2) = 15 placements of 2 tokens in 6 positions, got {len(places)}"
    assert set(inputs[:, :6].flatten().tolist()) == {FILLER, 2, 3, 4}
    assert torch.equal(inputs, selective_copying(400, 6, 2, 3, seed=5)[0])
    assert not torch.equal(inputs, selective_copying(400, 6, 2, 3, seed=6)[0])


def test_more_tokens_than_places_is_refused():
    with pytest.raises(ValueError, match="tokens=5, length=4"):
        selective_copying(1, 4, 5)


def test_positions_without_an_answer_are_the_ones_cross_entropy_ignores():
    assert IGNORE == torch.nn.CrossEntropyLoss().ignore_index
