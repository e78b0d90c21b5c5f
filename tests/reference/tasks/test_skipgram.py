"""The skip-gram task learns vectors that answer the corpus's analogies (king - man + woman = queen)."""
import torch

from seqmodels.tasks.skipgram import SKIPGRAM
from seqmodels.training import Trainer


def test_a_short_training_answers_most_analogies():
    device = torch.device("cpu")
    setup = SKIPGRAM.build(device=device, seed=0)
    with torch.no_grad():
        before = setup.evaluate(setup.model, "validation")
    trainer = Trainer(setup.model, setup.step, lr=3e-3, device=device, progress=False)
    trainer.fit(setup.train, epochs=2)
    with torch.no_grad():
        after = setup.evaluate(trainer.model, "test")
    assert after["test_loss"] < before["validation_loss"] - 1.0
    assert after["test_analogy_accuracy"] > 0.5, after  # about 0.75 after two epochs, 0.97 after five
