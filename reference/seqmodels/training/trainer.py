"""The course's trainer: one loop for every model, fast on a GPU and deterministic on a CPU.

A model is trained through a *step function* ``step(model, batch) -> (loss, tokens)``:
the mean loss of the batch and how many tokens it covered (for tokens/s and for
averaging), an int or a 0-d tensor (``mask.sum()``: no wait for the GPU to count). Batches
are whatever the data loader yields (tensors, tuples, dicts of tensors); the trainer moves
them to the device.

    trainer = Trainer(model, step, lr=1e-3)
    history = trainer.fit(loader, epochs=5, evaluate=lambda m: {"val_loss": ...})
    history.plot()

``scheduler=`` sets the learning rate before every update: a function of the update's number s (from 0) whose
value multiplies the base rate (``seqmodels.training.schedules``: Vaswani et al.'s warm-up, or warm-up and
cosine decay), run by PyTorch's ``LambdaLR``, which the trainer steps after each update.

While ``fit`` runs, one progress bar counts the batches of all its epochs and shows the running loss and
tokens per second; when an epoch ends, one line gives its metrics (``epoch 3/10  train loss 0.4123
validation accuracy 0.87  1.20 s  15,300 tokens/s``), and when the run ends the bar's final line stays. The
bar is tqdm's text bar, in a notebook too. In a Jupyter kernel the bar writes to stdout, so that a run's
epoch lines and its bar make one output; elsewhere it writes to stderr, and a log or a pipe gets the epoch
lines alone. The lines go to stdout, flushed, so a log gets them at once.

On CUDA the forward pass runs under bf16 autocast and batches come from pinned memory, and
the losses are read back only every ``REFRESH_SECONDS`` (for the progress bar and the check
for a diverging loss): reading a GPU value makes the CPU wait, and a wait at every step
would leave the GPU idle while the CPU queues the next one. On the CPU, runs are seeded and
deterministic (same seed, same history).

Under ``torchrun --nproc_per_node=N`` the trainer trains data-parallel (``distributed.py``): each rank
steps on its shard of every batch, gradients are averaged before clipping and the update, and the
history's losses and token rates are the whole epoch's, summed over the ranks when it ends (one
all-reduce per epoch; the progress bar shows rank 0's shard). Evaluation runs on every rank, on the
same weights, so every rank gets the same metrics; only rank 0 prints and saves checkpoints.
"""
import math
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch
from torch import nn
from tqdm.std import tqdm

from seqmodels.training import distributed

Step = Callable[[nn.Module, Any], tuple[torch.Tensor, int | torch.Tensor]]
REFRESH_SECONDS = 0.5  # how often the losses are read back while training


def _bar_output():
    """stdout in a Jupyter kernel (a run's bar and its epoch lines then make one output), stderr elsewhere."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    return sys.stdout if type(shell).__name__ == "ZMQInteractiveShell" else sys.stderr


# A text bar in a notebook too: tqdm's widget bar is saved in the notebook as a widget, which reopened shows
# "Error displaying widget". The website keeps the epoch lines and drops the bar (book/make_pages.py); these
# notes stay out of the docstrings, which the website's API page shows to readers.
class progress_bar(tqdm):  # named and called like tqdm, which it is
    """tqdm's text bar, also in a notebook, on stdout in a Jupyter kernel and on stderr elsewhere. For a demo's
    own training loop, as for the trainer's."""

    def __init__(self, iterable=None, **options):
        options.setdefault("file", _bar_output())
        super().__init__(iterable, **options)


def pick_device(name: str | None = None) -> torch.device:
    """``name`` if given; otherwise CUDA, then Apple's MPS, then the CPU. Under torchrun, CUDA without an
    index is this process's GPU, ``cuda:LOCAL_RANK``."""
    if name:
        device = torch.device(name)
    elif torch.cuda.is_available():
        device = torch.device("cuda")
    elif getattr(torch.backends, "mps", None) is not None and torch.backends.mps.is_available():
        device = torch.device("mps")
    else:
        device = torch.device("cpu")
    return distributed.local_device(device)


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
    """A seeded DataLoader over a list of examples; pinned memory when the batches go to a GPU. Under
    torchrun every rank shuffles alike (same seed), which is what lets the trainer shard each batch."""
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
        """Learning curves (losses and metrics against epochs) on ``ax`` or a new figure; returns the axes.

        Curves are labelled in words ("validation accuracy", not ``validation_accuracy``): on the
        y axis for one curve, in a legend for several.
        """
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(5, 3.2))
        skip = {"epoch", "tokens_per_s", "seconds"}
        names = list(metrics) if metrics is not None else [k for k in self.rows[0] if k not in skip] if self.rows else []
        for name in names:
            ax.plot(self["epoch"][: len(self[name])], self[name], marker="o", label=name.replace("_", " "))
        ax.set(xlabel="epoch", title="Learning curves")
        if len(names) == 1:
            ax.set_ylabel(names[0].replace("_", " "))
        else:
            ax.legend()
        return ax


class EpochLoss:
    """The token-weighted mean training loss of an epoch. Steps add their loss tensors without
    reading them; ``mean()`` reads every pending one at once (one wait for the GPU) and checks it."""

    def __init__(self, epoch: int):
        self.epoch, self.steps, self.total, self.tokens = epoch, 0, 0.0, 0
        self.pending: list[tuple[torch.Tensor, int | torch.Tensor]] = []

    def add(self, loss: torch.Tensor, tokens: int | torch.Tensor) -> None:
        self.pending.append((loss.detach(), tokens))

    def mean(self) -> float:
        values = read_numbers(loss for loss, _ in self.pending)
        counts = read_numbers(tokens for _, tokens in self.pending)
        for value, tokens in zip(values, map(int, counts)):
            self.steps += 1
            if not math.isfinite(value):
                raise FloatingPointError(f"the loss became {value} at step {self.steps} of epoch {self.epoch}: "
                                         "lower the learning rate or clip harder")
            self.total, self.tokens = self.total + value * tokens, self.tokens + tokens
        self.pending.clear()
        return self.total / max(self.tokens, 1)


def read_numbers(values: Iterable[int | float | torch.Tensor]) -> list[int | float]:
    """Python numbers of ``values`` (numbers or 0-d tensors), with one copy from the device for all the tensors."""
    values = list(values)
    tensors = [v for v in values if isinstance(v, torch.Tensor)]
    read = iter(torch.stack(tensors).tolist() if tensors else [])
    return [next(read) if isinstance(v, torch.Tensor) else v for v in values]


def epoch_line(row: dict[str, float], epochs: int) -> str:
    """One epoch's row of the history as the trainer prints it: the epoch of ``epochs``, the losses and
    metrics (in words, as on the learning curves), the seconds of training and the tokens per second."""
    metrics = "  ".join(f"{name.replace('_', ' ')} {value:.4g}" for name, value in row.items()
                        if name not in ("epoch", "seconds", "tokens_per_s"))
    return f"epoch {row['epoch']}/{epochs}  {metrics}  {row['seconds']:.2f} s  {row['tokens_per_s']:,.0f} tokens/s"


class Trainer:
    """Trains ``model`` with ``step`` and Adam (or ``optimizer``), clipping the gradients' global norm; ``scheduler``
    (update number -> factor of the base rate) changes the rate at every update. ``progress=False`` silences the progress bar and the epoch lines (for tests and benchmarks: a demo shows them)."""

    def __init__(self, model: nn.Module, step: Step, *, lr: float = 1e-3, optimizer: torch.optim.Optimizer | None = None,
                 device: str | torch.device | None = None, clip_norm: float | None = 1.0, seed: int = 0,
                 progress: bool = True, scheduler: Callable[[int], float] | None = None):
        self.generator = seed_everything(seed)
        self.device = pick_device(str(device) if device is not None else None)
        distributed.start(self.device)  # under torchrun: join the process group (once)
        self.model = model.to(self.device)
        distributed.broadcast_state(self.model)
        self.step = step
        self.optimizer = optimizer or torch.optim.Adam(self.model.parameters(), lr=lr)
        self.scheduler = torch.optim.lr_scheduler.LambdaLR(self.optimizer, scheduler) if scheduler else None
        self.clip_norm = clip_norm
        self.progress = progress and distributed.is_main()
        self.history = History()
        # bf16 keeps float32's range, so no loss scaling is needed (unlike fp16)
        self.autocast = self.device.type == "cuda" and torch.cuda.is_bf16_supported()

    def _train_step(self, batch: Any) -> tuple[torch.Tensor, int | torch.Tensor]:
        self.model.train()
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=self.autocast):
            loss, tokens = self.step(self.model, to_device(batch, self.device))
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        distributed.average_gradients(self.model.parameters())  # whatever method the step called
        if self.clip_norm is not None:
            nn.utils.clip_grad_norm_(self.model.parameters(), self.clip_norm)  # global norm (Xiao Eq. 4.13)
        self.optimizer.step()
        if self.scheduler is not None:
            self.scheduler.step()  # the rate of the next update
        return loss, tokens

    def fit(self, loader: Iterable, epochs: int = 1,
            evaluate: Callable[[nn.Module], dict[str, float]] | None = None) -> History:
        """Train for ``epochs`` passes over ``loader``; after each, ``evaluate(model)`` adds its metrics.
        A loss that is not finite stops training with FloatingPointError (found when the losses are read).
        Under torchrun each rank trains on its shard of ``loader``'s batches."""
        loader = distributed.shard(loader)
        last = len(self.history.rows) + epochs  # epochs count on from an earlier fit or a loaded checkpoint
        total = epochs * len(loader) if hasattr(loader, "__len__") else None
        with progress_bar(total=total, disable=not self.progress, mininterval=REFRESH_SECONDS) as bar:
            for _ in range(epochs):
                self._epoch(loader, bar, evaluate, last)
        return self.history

    def _epoch(self, loader: Iterable, bar: progress_bar, evaluate: Callable[[nn.Module], dict[str, float]] | None,
               last: int) -> None:
        """One pass over ``loader``, counted on ``bar``; its row joins the history, and its line is printed."""
        epoch = len(self.history.rows) + 1
        loss = EpochLoss(epoch)
        start = last_read = time.perf_counter()
        bar.set_description(f"epoch {epoch}/{last}", refresh=False)
        for batch in loader:
            loss.add(*self._train_step(batch))
            bar.update()
            if time.perf_counter() - last_read >= REFRESH_SECONDS:
                self._show(bar, loss.mean(), loss.tokens, start)
                last_read = time.perf_counter()
        loss.mean()  # waits for the epoch's last step, so the time below counts it
        seconds = time.perf_counter() - start
        total, tokens = distributed.sum_over_ranks([loss.total, loss.tokens], self.device)  # every rank's
        row = {"epoch": epoch, "train_loss": total / max(tokens, 1), "tokens_per_s": tokens / max(seconds, 1e-9),
               "seconds": seconds}
        if evaluate is not None:
            self.model.eval()
            with torch.no_grad(), torch.autocast("cuda", dtype=torch.bfloat16, enabled=self.autocast):
                row.update({name: float(value) for name, value in evaluate(self.model).items()})
        self.history.rows.append(row)
        if self.progress:
            progress_bar.write(epoch_line(row, last), file=sys.stdout)  # above the bar, which is redrawn below
            sys.stdout.flush()

    @staticmethod
    def _show(bar, mean_loss: float, tokens: int, start: float) -> None:
        rate = tokens / max(time.perf_counter() - start, 1e-9)
        bar.set_postfix(loss=f"{mean_loss:.4f}", tok_s=f"{rate:,.0f}")

    def save(self, path: str | Path) -> None:
        """Model, optimizer (and schedule) and history, so that training can resume where it stopped (under torchrun, rank 0
        writes: every rank holds the same)."""
        if distributed.is_main():
            torch.save({"model": self.model.state_dict(), "optimizer": self.optimizer.state_dict(),
                        "history": self.history.rows,
                        "scheduler": self.scheduler.state_dict() if self.scheduler is not None else None}, path)
        distributed.barrier()  # no rank reads it before it is written

    def load(self, path: str | Path) -> None:
        state = torch.load(path, map_location=self.device, weights_only=True)
        self.model.load_state_dict(state["model"])
        self.optimizer.load_state_dict(state["optimizer"])
        if self.scheduler is not None and state.get("scheduler") is not None:  # none in a run saved without one
            self.scheduler.load_state_dict(state["scheduler"])
        self.history = History(list(state["history"]))

