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


def inputs_of(module: torch.nn.Module, run) -> list[torch.Tensor]:
    """The first positional input of every call of ``module`` during ``run()``."""
    seen = []
    handle = module.register_forward_pre_hook(lambda _, args: seen.append(args[0].detach()))
    run()
    handle.remove()
    return seen


def test_dropout_zero_changes_nothing_and_eval_mode_drops_nothing(device):
    torch.manual_seed(0)
    model = RecurrentClassifier(12, 5, 6, 3, cell="gru").to(device)
    torch.manual_seed(0)
    with_dropout = RecurrentClassifier(12, 5, 6, 3, cell="gru", dropout=0.5).to(device)
    ids, mask = (t.to(device) for t in pad_batch([[3, 4, 5, 6], [7], [1, 2, 2]]))
    rng_state = torch.cuda.get_rng_state if device == "cuda" else torch.get_rng_state
    before = rng_state()
    train_mode = model.train()(ids, mask)
    assert torch.equal(rng_state(), before)  # p = 0 draws no random numbers: training runs are unchanged
    torch.testing.assert_close(train_mode, model.eval()(ids, mask), rtol=0, atol=0)
    torch.testing.assert_close(with_dropout.eval()(ids, mask), train_mode, rtol=0, atol=0)  # same seed, same weights


def test_dropout_in_training_zeroes_the_inputs_and_the_last_state_and_scales_the_rest(device):
    torch.manual_seed(0)
    p = 0.4
    model = RecurrentClassifier(50, 64, 64, 3, cell="lstm", dropout=p).to(device).train()
    ids, mask = (t.to(device) for t in pad_batch([list(range(1, 41)), list(range(10, 30))]))
    into_layer = inputs_of(model.recurrent, lambda: model(ids, mask))[0]
    into_output = inputs_of(model.out, lambda: model(ids, mask))[0]
    words = model.embedding(ids).detach()
    kept = into_layer != 0
    torch.testing.assert_close(into_layer[kept], words[kept] / (1 - p))  # survivors scaled by 1 / (1 - p)
    assert abs((~kept[mask]).float().mean().item() - p) < 0.05  # 40 x 64 + 20 x 64 entries, about p of them zero
    assert (into_output == 0).any() and (into_output != 0).any()
    one, two = model(ids, mask), model(ids, mask)
    assert not torch.equal(one, two)  # a fresh mask at every call
    model.eval()
    torch.testing.assert_close(model(ids, mask), model(ids, mask), rtol=0, atol=0)
