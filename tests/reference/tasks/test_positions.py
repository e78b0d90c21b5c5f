"""The positions tasks: positions lift the model from chance to near-perfect accuracy on which-first."""
import pytest
import torch

from seqmodels.tasks.positions import POSITIONS
from seqmodels.training import Trainer

TASKS = {task.name: task for task in POSITIONS}


def train_and_test(name: str, epochs: int, hand_written: bool = False) -> float:
    setup = TASKS[name].build(device=torch.device("cpu"), hand_written=hand_written, seed=0)
    trainer = Trainer(setup.model, setup.step, lr=3e-3, device="cpu", seed=0, progress=False)
    trainer.fit(setup.train, epochs=epochs)
    with torch.no_grad():
        return setup.evaluate(trainer.model.eval(), "test")["test_accuracy"]


def test_the_three_kinds_are_registered():
    assert set(TASKS) == {"positions-none", "positions-sinusoidal", "positions-learned"}


@pytest.mark.parametrize("name", ["positions-sinusoidal", "positions-learned"])
def test_positions_solve_the_task(name):
    assert train_and_test(name, epochs=6) > 0.9


def test_without_positions_the_model_stays_at_chance():
    assert 0.35 < train_and_test("positions-none", epochs=3) < 0.65


def test_the_hand_written_path_trains_too():
    assert train_and_test("positions-sinusoidal", epochs=4, hand_written=True) > 0.85
