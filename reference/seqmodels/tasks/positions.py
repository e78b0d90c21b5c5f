"""Which marker comes first (chapter 08): the same model with no, sinusoidal or learned positions on
seqmodels.data.order, where a bag of words is at chance."""
import torch

from seqmodels.data.order import which_first
from seqmodels.models.position_classifier import POSITIONS as KINDS
from seqmodels.models.position_classifier import PositionClassifier
from seqmodels.tasks.base import SCALES, Scale, Setup, Task, classification


def builder(positions: str):
    def build(device: torch.device, hand_written: bool = False, seed: int = 0, scale: Scale = SCALES["cpu"]) -> Setup:
        data = which_first(n=2000 * scale.data, length=12, jitter=4, seed=seed)
        model = PositionClassifier(len(data.vocab), 32 * scale.width, 2, positions=positions, max_len=32,
                                   hand_written=hand_written)
        return classification(data, model, device, seed, batch_size=32 * scale.batch)
    return build


POSITIONS = [Task(f"positions-{kind}", f"does 'A' come before 'B'? {kind} positional encodings + max pooling "
                  "(chapter 08; a bag of words is at chance, 50%)", builder(kind), epochs=10) for kind in KINDS]
