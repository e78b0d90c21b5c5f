"""Chapter 14's recall tasks: the four models come out at about the same size and read causally, a training
epoch runs on each device, and the accuracy counts the answer positions only (an oracle that looks the
answers up by brute force scores 1, a model that always says the same scores that token's share)."""
import pytest
import torch
from torch import nn

from seqmodels.data.selective_copying import IGNORE
from seqmodels.tasks.recall import BUILDERS, TASKS, at_parameters, count, recall_setup
from seqmodels.training import Trainer


@pytest.mark.parametrize("task", TASKS)
def test_the_four_models_have_about_the_same_size_and_read_causally(task):
    vocab, make = TASKS[task]
    inputs, _ = make(2, 24, 0)
    changed = inputs.clone()
    changed[:, 12:] = (changed[:, 12:] + 1) % vocab
    for name in BUILDERS:
        torch.manual_seed(0)
        model = at_parameters(name, vocab, 7000).eval()
        assert abs(count(model) - 7000) < 350, f"{name}: {count(model):,} parameters, expected 7,000 ± 5 %"
        with torch.no_grad():
            torch.testing.assert_close(model(changed)[:, :12], model(inputs)[:, :12], msg=f"{name} looks ahead")


class Oracle(nn.Module):
    """Answers by brute force: a copy marker's i-th data token, a query's value after its key among the pairs."""

    def __init__(self, vocab: int, task: str):
        super().__init__()
        self.vocab, self.task, self.weight = vocab, task, nn.Parameter(torch.zeros(()))

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        logits = torch.zeros(*ids.shape, self.vocab)
        for b, row in enumerate(ids.tolist()):
            for t, token in enumerate(row):
                if self.task == "selective copying":
                    data = [x for x in row if x > 1]
                    answer = data[t - row.index(1)] if token == 1 else 0
                else:
                    answer = next((row[s + 1] for s in range(0, t - 1, 2) if row[s] == token and token != 0), 0)
                logits[b, t, answer] = 1.0
        return logits + self.weight


@pytest.mark.parametrize("task", TASKS)
def test_accuracy_counts_the_answers_only(task):
    vocab, make = TASKS[task]
    setup = recall_setup(task, Oracle(vocab, task), 20, torch.device("cpu"), train=4, held_out=30)
    assert setup.evaluate(setup.model)["validation_accuracy"] == 1.0
    _, targets = make(30, 20, 1)
    answered = targets[targets != IGNORE]
    always = int(answered.mode().values)
    constant = nn.Module()
    constant.forward = lambda ids: nn.functional.one_hot(torch.full_like(ids, always), vocab).float()
    expected = float((answered == always).float().mean())
    assert setup.evaluate(constant)["validation_accuracy"] == pytest.approx(expected)


@pytest.mark.parametrize("name", BUILDERS)
def test_an_epoch_trains_on_each_device(device, name):
    torch.manual_seed(0)
    model = at_parameters(name, TASKS["associative recall"][0], 3000)
    setup = recall_setup("associative recall", model, 16, torch.device(device), train=8, held_out=8, batch_size=4)
    history = Trainer(model, setup.step, lr=3e-3, device=device, progress=False).fit(setup.train, 1)
    assert history["train_loss"][0] > 0 and 0 <= setup.evaluate(model.eval())["validation_accuracy"] <= 1
