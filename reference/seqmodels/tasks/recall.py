"""Chapter 14's synthetic long-range tasks: selective copying (Gu & Dao, 2023) and multi-query associative recall
(Arora et al., 2023), learned by chapter 05's LSTM, chapter 13's GPT, a time-invariant SSM and Mamba's selective
SSM at the same number of parameters.

**The models.** Each reads the whole sequence causally and gives logits over the vocabulary at every position:
``RecurrentLM`` with an LSTM (chapter 05), ``GPT`` with rotary positions (chapter 13: no table of learned
positions, whose size would grow with L), ``MambaLM(selective=False)`` (Mamba's block with the time-invariant
S4D layer: Mamba's Table 1 ablation) and ``MambaLM`` (the selective SSM), two layers each (the LSTM one). The
width of each is the one whose parameter count comes closest to ``parameters``; ``count`` says what it got.

**The score.** Cross-entropy and accuracy only at the positions that have an answer (the copied tokens, the
recalled values); accuracy is the fraction of those positions whose arg-max is the answer, on held-out
sequences drawn with another seed.
"""
from collections.abc import Callable

import torch
from torch import nn
from torch.nn import functional as F

from seqmodels.data import associative_recall as mqar
from seqmodels.data import selective_copying as copying
from seqmodels.models.gpt import GPT
from seqmodels.models.mamba import MambaLM
from seqmodels.models.recurrent_lm import RecurrentLM
from seqmodels.tasks.base import Setup
from seqmodels.training import make_loader, to_device

COPIED, SYMBOLS = 4, 8  # selective copying: 4 data tokens of 8 symbols (chance 1/8)
PAIRS, KEYS, VALUES = 4, 16, 16  # associative recall: 4 key-value pairs (chance 1/16)
STATES = 8  # the SSMs' state per channel (Mamba's default is 16: half of it halves the scan's memory traffic on a CPU)

TASKS: dict[str, tuple[int, Callable[[int, int, int], tuple[torch.Tensor, torch.Tensor]]]] = {
    "selective copying": (copying.vocabulary_size(SYMBOLS),
                          lambda n, length, seed: copying.selective_copying(n, length, COPIED, SYMBOLS, seed)),
    "associative recall": (mqar.vocabulary_size(KEYS, VALUES),
                           lambda n, length, seed: mqar.associative_recall(n, length, PAIRS, KEYS, VALUES, seed)),
}


class EveryPosition(nn.Module):
    """A recurrent language model read at every position of unpadded sequences: ``ids [B, L]`` → logits."""

    def __init__(self, model: RecurrentLM):
        super().__init__()
        self.model = model

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        return self.model(ids, torch.ones_like(ids, dtype=torch.bool))


BUILDERS: dict[str, Callable[[int, int], nn.Module]] = {  # name -> build(vocabulary, width)
    "LSTM (chapter 05)": lambda vocab, width: EveryPosition(RecurrentLM(vocab, width, width)),
    "GPT (chapter 13)": lambda vocab, width: GPT(vocab, dim=width, heads=2, feedforward=4 * width, layers=2,
                                                 positions="rope"),
    "time-invariant SSM (S4D)": lambda vocab, width: MambaLM(vocab, dim=width, layers=2, states=STATES,
                                                                 selective=False),
    "selective SSM (Mamba)": lambda vocab, width: MambaLM(vocab, dim=width, layers=2, states=STATES),
}


def count(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())


WIDTH_STEP = {"GPT (chapter 13)": 4}  # two heads whose size is even, as the rotation pairs their numbers


def at_parameters(name: str, vocab: int, parameters: int) -> nn.Module:
    """``BUILDERS[name]`` at the width whose parameter count is closest to ``parameters``."""
    step = WIDTH_STEP.get(name, 1)
    width = step
    while count(BUILDERS[name](vocab, width + step)) <= parameters:  # the count grows with the width
        width += step
    return min((BUILDERS[name](vocab, w) for w in (width, width + step)), key=lambda m: abs(count(m) - parameters))


def recall_setup(task: str, model: nn.Module, length: int, device: torch.device, train: int = 1024,
                 held_out: int = 256, batch_size: int = 32, seed: int = 0) -> Setup:
    """``train`` sequences of ``task`` at ``length`` to train ``model`` on, ``held_out`` others (seed + 1) for its
    answer accuracy."""
    _, make = TASKS[task]
    data = {"train": make(train, length, seed), "validation": make(held_out, length, seed + 1)}

    def collate(examples):
        return torch.stack([i for i, _ in examples]), torch.stack([t for _, t in examples])

    def step(model, batch):
        inputs, targets = batch
        answered = targets != copying.IGNORE
        return F.cross_entropy(model(inputs)[answered].float(), targets[answered]), answered.sum()

    @torch.no_grad()
    def evaluate(model, split: str = "validation") -> dict[str, float]:
        inputs, targets = to_device(data[split], device)
        answered = targets != copying.IGNORE
        guesses = torch.cat([model(batch).argmax(-1) for batch in inputs.split(batch_size)])
        return {f"{split}_accuracy": float((guesses[answered] == targets[answered]).float().mean())}

    return Setup(model, step, make_loader(list(zip(*data["train"])), batch_size, collate, seed=seed, device=device),
                 evaluate)
