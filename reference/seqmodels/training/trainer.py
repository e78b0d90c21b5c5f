"""The course's trainer: one loop for every model, fast on a GPU and deterministic on a CPU.

A model is trained through a *step function* ``step(model, batch) -> (loss, tokens)``:
the mean loss of the batch and how many tokens it covered (for tokens/s and for
averaging). Batches are whatever the data loader yields (tensors, tuples, dicts of
tensors); the trainer moves them to the device.

    trainer = Trainer(model, step, lr=1e-3)
    history = trainer.fit(loader, epochs=5, evaluate=lambda m: {"val_loss": ...})
    history.plot()

On CUDA the forward pass runs under bf16 autocast and batches come from pinned memory;
on the CPU, runs are seeded and deterministic (same seed, same history).
"""
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch
from torch import nn
from tqdm.auto import tqdm

Step = Callable[[nn.Module, Any], tuple[torch.Tensor, int]]


def pick_device(name: str | None = None) -> torch.device:
    """``name`` if given; otherwise CUDA, then Apple's MPS, then the CPU."""
    if name:
        return torch.device(name)
    if torch.cuda.is_available():
        return torch.device("cuda")
    if getattr(torch.backends, "mps", None) is not None and torch.backends.mps.is_available():
        return torch.device("mps")
    return torch.device("cpu")


def seed_everything(seed: int) -> torch.Generator:
    """Seed torch (CPU and CUDA; CPU kernels are then deterministic); a generator for data shuffling."""
    torch.manual_seed(seed)
    return torch.Generator().manual_seed(seed)


def to_device(batch: Any, device: torch.device) -> Any:
    """``batch`` with every tensor moved to ``device`` (asynchronously from pinned memory)."""
    if isinstance(batch, torch.Tensor):
        return batch.to(device, non_blocking=batch.is_pinned())
    if isinstance(batch, dict):
        return {key: to_device(value, device) for key, value in batch.items()}
    if isinstance(batch, (list, tuple)):
        return type(batch)(to_device(value, device) for value in batch)
    return batch


def at_least_float32(t: torch.Tensor) -> torch.Tensor:
    """``t`` in float32 if autocast made it bf16/fp16 (losses and softmaxes want full precision); else unchanged."""
    return t.float() if t.dtype in (torch.float16, torch.bfloat16) else t


def make_loader(examples, batch_size: int, collate: Callable, *, shuffle: bool = True, seed: int = 0,
                device: torch.device | None = None) -> torch.utils.data.DataLoader:
    """A seeded DataLoader over a list of examples; pinned memory when the batches go to a GPU."""
    return torch.utils.data.DataLoader(examples, batch_size=batch_size, shuffle=shuffle, collate_fn=collate,
                                       generator=torch.Generator().manual_seed(seed),
                                       pin_memory=device is not None and device.type == "cuda")


@dataclass
class History:
    """One row per epoch: ``epoch``, ``train_loss``, ``tokens_per_s``, ``seconds`` and any evaluation metric."""

    rows: list[dict[str, float]] = field(default_factory=list)

    def __getitem__(self, metric: str) -> list[float]:
        return [row[metric] for row in self.rows if metric in row]

    def plot(self, metrics: Iterable[str] | None = None, ax=None):
        """Learning curves (losses and metrics against epochs) on ``ax`` or a new figure; returns the axes."""
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(5, 3.2))
        skip = {"epoch", "tokens_per_s", "seconds"}
        names = list(metrics) if metrics is not None else [k for k in self.rows[0] if k not in skip] if self.rows else []
        for name in names:
            ax.plot(self["epoch"][: len(self[name])], self[name], marker="o", label=name)
        ax.set(xlabel="epoch", title="Learning curves")
        ax.legend()
        return ax


class Trainer:
    """Trains ``model`` with ``step`` and Adam (or ``optimizer``), clipping the gradients' global norm."""

    def __init__(self, model: nn.Module, step: Step, *, lr: float = 1e-3, optimizer: torch.optim.Optimizer | None = None,
                 device: str | torch.device | None = None, clip_norm: float | None = 1.0, seed: int = 0,
                 progress: bool = True):
        self.generator = seed_everything(seed)
        self.device = pick_device(str(device) if device is not None else None)
        self.model = model.to(self.device)
        self.step = step
        self.optimizer = optimizer or torch.optim.Adam(self.model.parameters(), lr=lr)
        self.clip_norm = clip_norm
        self.progress = progress
        self.history = History()
        # bf16 keeps float32's range, so no loss scaling is needed (unlike fp16)
        self.autocast = self.device.type == "cuda" and torch.cuda.is_bf16_supported()

    def _train_step(self, batch: Any) -> tuple[float, int]:
        self.model.train()
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=self.autocast):
            loss, tokens = self.step(self.model, to_device(batch, self.device))
        if not torch.isfinite(loss):
            raise FloatingPointError(f"the loss became {loss.item()}: lower the learning rate or clip harder")
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        if self.clip_norm is not None:
            nn.utils.clip_grad_norm_(self.model.parameters(), self.clip_norm)  # global norm (Xiao Eq. 4.13)
        self.optimizer.step()
        return loss.item(), int(tokens)

    def fit(self, loader: Iterable, epochs: int = 1,
            evaluate: Callable[[nn.Module], dict[str, float]] | None = None) -> History:
        """Train for ``epochs`` passes over ``loader``; after each, ``evaluate(model)`` adds its metrics."""
        for _ in range(epochs):
            epoch = len(self.history.rows) + 1
            total_loss, total_tokens, start = 0.0, 0, time.perf_counter()
            bar = tqdm(loader, desc=f"epoch {epoch}", disable=not self.progress, leave=False)
            for batch in bar:
                loss, tokens = self._train_step(batch)
                total_loss, total_tokens = total_loss + loss * tokens, total_tokens + tokens
                rate = total_tokens / max(time.perf_counter() - start, 1e-9)
                bar.set_postfix(loss=f"{total_loss / total_tokens:.4f}", tok_s=f"{rate:,.0f}")
            seconds = time.perf_counter() - start
            row = {"epoch": epoch, "train_loss": total_loss / max(total_tokens, 1),
                   "tokens_per_s": total_tokens / max(seconds, 1e-9), "seconds": seconds}
            if evaluate is not None:
                self.model.eval()
                with torch.no_grad(), torch.autocast("cuda", dtype=torch.bfloat16, enabled=self.autocast):
                    row.update({name: float(value) for name, value in evaluate(self.model).items()})
            self.history.rows.append(row)
            if self.progress:
                tqdm.write(" ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}" for k, v in row.items()))
        return self.history

    def save(self, path: str | Path) -> None:
        """Model, optimizer and history, so that training can resume where it stopped."""
        torch.save({"model": self.model.state_dict(), "optimizer": self.optimizer.state_dict(),
                    "history": self.history.rows}, path)

    def load(self, path: str | Path) -> None:
        state = torch.load(path, map_location=self.device, weights_only=True)
        self.model.load_state_dict(state["model"])
        self.optimizer.load_state_dict(state["optimizer"])
        self.history = History(list(state["history"]))

