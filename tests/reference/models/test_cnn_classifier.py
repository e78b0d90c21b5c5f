"""The Kim CNN: the course's conv1d_same and F.conv1d give the same scores; word order inside a window matters."""
import torch

from seqmodels.models.cnn_classifier import CNNClassifier
from seqmodels.text.batching import pad_batch


def test_paths_agree(assert_paths_agree):
    torch.manual_seed(0)
    model = CNNClassifier(12, 4, 3, filters=5).double()
    assert_paths_agree(model, *pad_batch([[3, 4, 5, 6], [7], [1, 2, 2]]))


def test_word_order_changes_the_scores_but_padding_does_not():
    torch.manual_seed(0)
    model = CNNClassifier(12, 4, 3, filters=5)
    ids, mask = pad_batch([[3, 4, 5], [5, 4, 3]])
    scores = model(ids, mask)
    assert not torch.allclose(scores[0], scores[1])
    longer, longer_mask = pad_batch([[3, 4, 5], [1, 1, 1, 1, 1]])
    torch.testing.assert_close(model(longer, longer_mask)[0], scores[0])
