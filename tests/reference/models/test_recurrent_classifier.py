"""The recurrent acceptor: the hand-written loops and PyTorch's layers (on the padded batch) agree, for every cell."""
import pytest
import torch

from seqmodels.models.recurrent_classifier import RecurrentClassifier
from seqmodels.text.batching import pad_batch


@pytest.mark.parametrize("cell", ["elman", "lstm", "gru"])
def test_hand_written_and_fast_paths_agree_in_values_and_gradients(cell, assert_paths_agree):
    torch.manual_seed(0)
    model = RecurrentClassifier(12, 5, 6, 3, cell=cell).double()
    assert_paths_agree(model, *pad_batch([[3, 4, 5, 6], [7], [1, 2, 2]]))


def test_padding_does_not_change_a_row():
    torch.manual_seed(0)
    model = RecurrentClassifier(12, 5, 6, 3, cell="lstm")
    alone = model(*pad_batch([[3, 4]]))
    padded = model(*pad_batch([[3, 4], [1, 2, 3, 4, 5]]))[:1]
    torch.testing.assert_close(alone, padded)


def test_an_unknown_cell_is_refused():
    with pytest.raises(ValueError, match="cell must be one of"):
        RecurrentClassifier(5, 2, 2, 2, cell="transformer")
