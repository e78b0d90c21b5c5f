"""Carrying one symbol across a long sequence (chapter 05): Elman vs LSTM vs GRU on seqmodels.data.long_range."""
import torch

from seqmodels.data.long_range import first_symbol
from seqmodels.models.recurrent_classifier import RecurrentClassifier
from seqmodels.tasks.base import SCALES, Scale, Setup, Task, classification

LENGTH, CLASSES = 25, 4


def builder(cell: str):
    def build(device: torch.device, hand_written: bool = False, seed: int = 0, scale: Scale = SCALES["cpu"]) -> Setup:
        data = first_symbol(n=2000 * scale.data, length=LENGTH, classes=CLASSES, jitter=5, seed=seed)
        model = RecurrentClassifier(len(data.vocab), 16 * scale.width, 32 * scale.width, CLASSES, cell=cell,
                                    hand_written=hand_written)
        return classification(data, model, device, seed, batch_size=32 * scale.batch)
    return build


LONG_RANGE = [Task(f"long-range-{cell}", f"{name} classifier that must remember the first of ~{LENGTH} symbols "
                   f"(chapter 05; chance {1 / CLASSES:.0%})", builder(cell), epochs=20)
              for cell, name in (("elman", "Elman RNN"), ("lstm", "LSTM"), ("gru", "GRU"))]
