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
from seqmodels.training import at_least_float32, make_loader, to_device
from seqmodels.training.losses import masked_cross_entropy


@dataclass
class Setup:
    model: nn.Module
    step: Callable  # step(model, batch) -> (mean loss, tokens), as the Trainer expects
    train: torch.utils.data.DataLoader
    evaluate: Callable[[nn.Module, str], dict[str, float]]  # evaluate(model, "validation" | "test")


@dataclass(frozen=True)
class Scale:
    """How big a task runs: how many times the default's generated examples, hidden width and batch size.
    ``cpu`` is the default (every task well within a minute on 2 cores); ``gpu`` gives a GPU enough
    work per step to be worth it, with the same number of steps per epoch (data and batch grow alike)."""

    data: int = 1
    width: int = 1
    batch: int = 1


SCALES = {"cpu": Scale(), "gpu": Scale(data=8, width=4, batch=8)}


@dataclass(frozen=True)
class Task:
    name: str
    description: str
    build: Callable[..., Setup]  # build(device=..., hand_written=..., seed=..., scale=...) -> Setup
    epochs: int  # enough for a sensible metric, well within a minute on a 2-core CPU
    lr: float = 3e-3  # Adam's learning rate


def _accuracy(model, loader, device, correct_and_total) -> float:
    correct = total = 0
    for batch in loader:
        right, count = correct_and_total(model, to_device(batch, device))
        correct, total = correct + right, total + count
    return correct / total


def classification(data: Splits, model: nn.Module, device: torch.device, seed: int = 0,
                   batch_size: int = 32) -> Setup:
    """Train ``model(ids, mask) -> logits`` with cross-entropy on ``data``; evaluation reports accuracy."""
    def collate(examples):
        ids, mask = pad_batch([encode(tokens, data.vocab) for tokens, _ in examples])
        return ids, mask, torch.tensor([label for _, label in examples])

    def step(model, batch):
        ids, mask, labels = batch
        return F.cross_entropy(at_least_float32(model(ids, mask)), labels), mask.sum()

    def correct_and_total(model, batch):
        ids, mask, labels = batch
        return int((model(ids, mask).argmax(-1) == labels).sum()), len(labels)

    def evaluate(model, split: str = "validation") -> dict[str, float]:
        loader = make_loader(getattr(data, split), 256, collate, shuffle=False, device=device)
        return {f"{split}_accuracy": _accuracy(model, loader, device, correct_and_total)}

    return Setup(model, step, make_loader(data.train, batch_size, collate, seed=seed, device=device), evaluate)


def invalid_transitions(tags: list[str]) -> int:
    """How many I-X tags follow neither B-X nor I-X (impossible in BIO)."""
    return sum(tag.startswith("I-") and previous[2:] != tag[2:] for previous, tag in zip(["O", *tags], tags))


def tagging(data: Splits, tags: list[str], model: nn.Module, device: torch.device, seed: int = 0,
            batch_size: int = 32) -> Setup:
    """Train a tagger with per-token cross-entropy, or its own ``loss(ids, mask, labels)`` (a CRF); report
    token accuracy and invalid BIO transitions per sentence of its ``decode`` (or per-token argmax)."""
    tag_id = {tag: i for i, tag in enumerate(tags)}

    def collate(examples):
        ids, mask = pad_batch([encode(tokens, data.vocab) for tokens, _ in examples])
        labels, _ = pad_batch([[tag_id[t] for t in sequence] for _, sequence in examples])
        return ids, mask, labels

    def step(model, batch):
        ids, mask, labels = batch
        if hasattr(model, "loss"):
            return model.loss(ids, mask, labels), mask.sum()
        return masked_cross_entropy(model(ids, mask), labels, mask), mask.sum()

    def decode(model, ids, mask) -> list[list[int]]:
        if hasattr(model, "decode"):
            return model.decode(ids, mask)
        best = model(ids, mask).argmax(-1).tolist()
        return [row[:n] for row, n in zip(best, mask.sum(1).tolist())]

    def evaluate(model, split: str = "validation") -> dict[str, float]:
        correct = total = invalid = sentences = 0
        for batch in make_loader(getattr(data, split), 256, collate, shuffle=False, device=device):
            ids, mask, labels = to_device(batch, device)
            for guess, gold_row in zip(decode(model, ids, mask), labels.tolist()):
                gold = gold_row[: len(guess)]
                correct += sum(g == t for g, t in zip(guess, gold))
                total += len(gold)
                invalid += invalid_transitions([tags[g] for g in guess])
                sentences += 1
        return {f"{split}_token_accuracy": correct / total, f"{split}_invalid_per_sentence": invalid / sentences}

    return Setup(model, step, make_loader(data.train, batch_size, collate, seed=seed, device=device), evaluate)
