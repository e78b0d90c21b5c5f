"""The tagger: hand-written (Bi)LSTM loops and PyTorch's layer on the padded batch give the same tag scores and gradients."""
import pytest
import torch

from seqmodels.models.tagger import Tagger
from seqmodels.text.batching import pad_batch


@pytest.mark.parametrize("bidirectional", [False, True])
def test_hand_written_and_fast_paths_agree(bidirectional, assert_paths_agree):
    torch.manual_seed(0)
    model = Tagger(15, 4, 5, 3, bidirectional=bidirectional).double()
    ids, mask = pad_batch([[3, 4, 5, 6], [7], [1, 2, 2]])
    assert_paths_agree(model, ids, mask, select=lambda scores: scores[mask])


def test_a_bidirectional_tagger_sees_the_right_context():
    torch.manual_seed(0)
    model = Tagger(15, 4, 5, 3, bidirectional=True)
    a, mask = pad_batch([[3, 4, 5]])
    b, _ = pad_batch([[3, 4, 9]])  # only the last token differs
    assert not torch.allclose(model(a, mask)[0, 0], model(b, mask)[0, 0])
    model = Tagger(15, 4, 5, 3, bidirectional=False)
    torch.testing.assert_close(model(a, mask)[0, :2], model(b, mask)[0, :2])
