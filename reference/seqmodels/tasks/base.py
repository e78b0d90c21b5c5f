"""What a training task provides (a model, its step function, data loaders, an evaluation), and the
shared recipe for sequence classification."""
from collections.abc import Callable
from dataclasses import dataclass

import torch
from torch import nn
from torch.nn import functional as F

from seqmodels.data.splits import Splits
from seqmodels.text.batching import pad_batch
from seqmodels.text.vocab import encode
from seqmodels.training import make_loader, to_device


@dataclass
class Setup:
    model: nn.Module
    step: Callable  # step(model, batch) -> (mean loss, tokens), as the Trainer expects
    train: torch.utils.data.DataLoader
    evaluate: Callable[[nn.Module, str], dict[str, float]]  # evaluate(model, "validation" | "test")


@dataclass(frozen=True)
class Task:
    name: str
    description: str
    build: Callable[..., Setup]  # build(device=..., hand_written=..., seed=...) -> Setup
    epochs: int  # enough for a sensible metric, well within a minute on a 2-core CPU


def classification(data: Splits, model: nn.Module, device: torch.device, seed: int = 0,
                   batch_size: int = 32) -> Setup:
    """Train ``model(ids, mask) -> logits`` with cross-entropy on ``data``; evaluation reports accuracy."""
    def collate(examples):
        ids, mask = pad_batch([encode(tokens, data.vocab) for tokens, _ in examples])
        return ids, mask, torch.tensor([label for _, label in examples])

    def step(model, batch):
        ids, mask, labels = batch
        return F.cross_entropy(model(ids, mask).float(), labels), int(mask.sum())

    def evaluate(model, split: str = "validation") -> dict[str, float]:
        correct = total = 0
        for batch in make_loader(getattr(data, split), 256, collate, shuffle=False):
            ids, mask, labels = to_device(batch, device)
            correct += int((model(ids, mask).argmax(-1) == labels).sum())
            total += len(labels)
        return {f"{split}_accuracy": correct / total}

    return Setup(model, step, make_loader(data.train, batch_size, collate, seed=seed, device=device), evaluate)
