"""What a training task provides: a model, its step function, data loaders and an evaluation."""
from collections.abc import Callable
from dataclasses import dataclass

import torch
from torch import nn


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
    epochs: int  # about a minute on a 2-core CPU


def batches(loader, device: torch.device):
    """Yield ``loader``'s batches moved to ``device``."""
    from seqmodels.training import to_device

    for batch in loader:
        yield to_device(batch, device)
