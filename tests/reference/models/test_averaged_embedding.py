"""The averaged-embedding classifier: hand-written and fused paths agree; it learns; it ignores word order."""
import torch

from seqmodels.models.averaged_embedding import AveragedEmbeddingClassifier
from seqmodels.text.batching import pad_batch


def test_hand_written_and_embedding_bag_paths_agree_in_values_and_gradients(assert_paths_agree):
    torch.manual_seed(0)
    model = AveragedEmbeddingClassifier(20, 5, 3).double()
    assert_paths_agree(model, *pad_batch([[3, 4, 5], [7], [1, 2, 2, 9]]))


def test_a_student_function_can_replace_the_pooling():
    calls = []

    def my_mean_pool(x, mask):
        calls.append(x.shape)
        return (x * mask.unsqueeze(-1)).sum(1) / mask.sum(1, keepdim=True)

    model = AveragedEmbeddingClassifier(10, 4, 2, hand_written=True, pool_fn=my_mean_pool)
    ids, mask = pad_batch([[1, 2], [3]])
    model(ids, mask)
    assert calls == [torch.Size([2, 2, 4])]


def test_word_order_and_padding_do_not_change_the_prediction():
    torch.manual_seed(1)
    model = AveragedEmbeddingClassifier(10, 4, 2)
    ids, mask = pad_batch([[1, 2, 3], [3, 2, 1], [1, 2, 3, 0, 0]])
    mask[2, 3:] = False
    out = model(ids, mask)
    torch.testing.assert_close(out[0], out[1])
    torch.testing.assert_close(out[0], out[2])


def test_a_few_steps_lower_the_loss(classifier_losses):
    torch.manual_seed(0)
    model = AveragedEmbeddingClassifier(6, 8, 2)
    ids, mask = pad_batch([[1, 2], [3, 4], [1, 5], [3, 5]])
    labels = torch.tensor([1, 0, 1, 0])
    losses = classifier_losses(model, ids, mask, labels, steps=30)
    assert losses[-1] < 0.2 * losses[0]
