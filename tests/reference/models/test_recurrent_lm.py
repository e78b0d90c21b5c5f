"""The recurrent language model: both paths agree on every logit; it learns a repeating sequence."""
import pytest
import torch

from seqmodels.models.recurrent_lm import RecurrentLM
from seqmodels.text.batching import pad_batch


@pytest.mark.parametrize("cell", ["elman", "lstm", "gru"])
def test_hand_written_and_fast_paths_give_the_same_logits(cell):
    torch.manual_seed(0)
    model = RecurrentLM(9, 4, 5, cell=cell).double()
    ids, mask = pad_batch([[1, 2, 3, 4], [5, 6]])
    fast = model(ids, mask)
    model.recurrent.hand_written = True
    torch.testing.assert_close(model(ids, mask), fast)


def test_the_loss_ignores_padding():
    torch.manual_seed(0)
    model = RecurrentLM(9, 4, 5)
    ids, mask = pad_batch([[1, 2, 3], [4, 5]])
    targets = torch.tensor([[2, 3, 4], [5, 6, 0]])
    alone = model.loss(ids[1:, :2], targets[1:, :2], mask[1:, :2])
    garbage = targets.clone()
    garbage[1, 2] = 8  # a target under padding must not matter
    both = model.loss(ids, garbage, mask)
    expected = (model.loss(ids[:1], targets[:1], mask[:1]) * 3 + alone * 2) / 5
    torch.testing.assert_close(both, expected)


def test_a_few_steps_learn_a_repeating_sequence():
    torch.manual_seed(0)
    model = RecurrentLM(4, 8, 16, cell="gru")
    sequence = torch.tensor([[0, 1, 2, 3] * 5])
    inputs, targets, mask = sequence[:, :-1], sequence[:, 1:], torch.ones(1, 19, dtype=torch.bool)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
    for _ in range(60):
        loss = model.loss(inputs, targets, mask)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    assert loss.item() < 0.1


def test_dropout_acts_only_in_training_and_zero_dropout_is_the_plain_model(device):
    torch.manual_seed(0)
    plain = RecurrentLM(9, 16, 16).to(device)
    torch.manual_seed(0)
    model = RecurrentLM(9, 16, 16, dropout=0.5).to(device)
    ids, mask = (t.to(device) for t in pad_batch([[1, 2, 3, 4], [5, 6]]))
    torch.testing.assert_close(model.eval()(ids, mask), plain.train()(ids, mask), rtol=0, atol=0)
    logits = model.train()(ids, mask)
    assert not torch.equal(logits, model(ids, mask))
    seen = []
    handle = model.out.register_forward_pre_hook(lambda _, args: seen.append(args[0]))
    model(ids, mask)
    handle.remove()
    assert (seen[0][mask] == 0).float().mean() > 0.3  # about half the entries dropped before the output layer
