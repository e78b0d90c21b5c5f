"""The position classifier: both paths agree; without positions it is order-blind; with them it is not; it learns."""
import pytest
import torch

from seqmodels.models.position_classifier import PositionClassifier
from seqmodels.text.batching import pad_batch


@pytest.mark.parametrize("positions", ["none", "sinusoidal", "learned"])
def test_hand_written_and_fast_paths_agree_in_values_and_gradients(assert_paths_agree, positions):
    torch.manual_seed(0)
    model = PositionClassifier(12, 6, 3, positions=positions, max_len=8).double()
    assert_paths_agree(model, *pad_batch([[3, 4, 5], [7], [1, 2, 2, 9, 11]]))


def test_a_student_function_can_replace_the_merge_and_the_table():
    calls = []

    def my_add_positions(x, pe, mode="add"):
        calls.append((tuple(x.shape), tuple(pe.shape), mode))
        return x + pe[: x.shape[1]]

    model = PositionClassifier(10, 4, 2, max_len=5, hand_written=True, add_fn=my_add_positions,
                               pe_fn=lambda m, d: torch.ones(m, d))
    model(*pad_batch([[1, 2], [3]]))
    assert calls == [((2, 2, 4), (5, 4), "add")]
    assert torch.equal(model.P, torch.ones(5, 4))


def test_only_positions_make_the_model_see_word_order():
    ids, mask = pad_batch([[1, 2, 3, 4], [4, 3, 2, 1], [1, 2, 3, 4, 0]])
    mask[2, 4] = False
    for positions, order_matters in [("none", False), ("sinusoidal", True), ("learned", True)]:
        torch.manual_seed(1)
        out = PositionClassifier(10, 8, 2, positions=positions, max_len=6)(ids, mask)
        torch.testing.assert_close(out[0], out[2])  # padding changes nothing
        assert (not torch.allclose(out[0], out[1])) == order_matters, positions


def test_too_long_sequences_and_unknown_kinds_are_refused():
    with pytest.raises(ValueError, match="exceed"):
        PositionClassifier(10, 4, 2, max_len=3)(*pad_batch([[1, 2, 3, 4]]))
    with pytest.raises(ValueError, match="positions must be"):
        PositionClassifier(10, 4, 2, positions="rotary")


def test_a_few_steps_lower_the_loss_on_an_order_only_problem(classifier_losses):
    torch.manual_seed(0)
    model = PositionClassifier(4, 8, 2, positions="sinusoidal", max_len=4, hidden=16)
    ids, mask = pad_batch([[1, 2, 3], [2, 1, 3], [3, 1, 2], [3, 2, 1]])  # label: does 1 come before 2?
    labels = torch.tensor([1, 0, 1, 0])
    losses = classifier_losses(model, ids, mask, labels, steps=40)
    assert losses[-1] < 0.2 * losses[0]
