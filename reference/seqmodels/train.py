"""Train one of the course's models from the command line and report its metrics.

    python -m seqmodels.train TASK [--device cuda] [--epochs N] [--hand-written [--cuda-graphs]] [--scale gpu]

``--hand-written`` runs the course's own implementations of the model's parts instead of
PyTorch's fast path (same results, slower); with ``--cuda-graphs`` their step loops are replayed
from CUDA graphs on a GPU (seqmodels.training.cuda_graphs). ``--scale gpu`` trains a wider model
on eight times the data in eight times larger batches (seqmodels.tasks.base.SCALES). ``--help``
lists the tasks.

``torchrun --nproc_per_node=N -m seqmodels.train TASK ...`` trains data-parallel on N GPUs (NCCL) or
N CPU processes (gloo); rank 0 prints (seqmodels.training.distributed).
"""
import argparse
import sys

import torch

from seqmodels.models.recurrent_layer import Recurrent
from seqmodels.tasks import TASKS
from seqmodels.tasks.base import SCALES, Setup
from seqmodels.training import Trainer, pick_device, seed_everything
from seqmodels.training.distributed import data_parallel, is_main


def cuda_graphs_refusal(hand_written: bool, device: torch.device) -> str | None:
    """Why ``--cuda-graphs`` cannot run here, if it cannot: it replays the hand-written layers on a CUDA GPU."""
    if not (hand_written and device.type == "cuda"):
        return f"--cuda-graphs needs --hand-written and a CUDA device (the device here is {device})"
    return None


def fit(task_name: str, *, device: str | torch.device | None = None, epochs: int | None = None,
        hand_written: bool = False, cuda_graphs: bool = False, scale: str = "cpu", seed: int = 0,
        lr: float | None = None, progress: bool = True) -> tuple[Trainer, Setup]:
    """Train the task's model (for its own number of epochs, at its own learning rate, unless told); the trainer
    (with its history) and the setup."""
    task, device = TASKS[task_name], pick_device(str(device) if device is not None else None)
    seed_everything(seed)  # before the model is built: same seed, same initial weights
    setup = task.build(device=device, hand_written=hand_written, seed=seed, scale=SCALES[scale])
    if cuda_graphs:
        if refusal := cuda_graphs_refusal(hand_written, device):
            raise ValueError(refusal)
        for layer in setup.model.modules():
            if isinstance(layer, Recurrent):
                layer.use_cuda_graphs()
    trainer = Trainer(setup.model, setup.step, lr=lr or task.lr, device=device, seed=seed, progress=progress)
    trainer.fit(setup.train, epochs=epochs or task.epochs, evaluate=lambda model: setup.evaluate(model, "validation"))
    return trainer, setup


def test_metrics(trainer: Trainer, setup: Setup) -> dict[str, float]:
    trainer.model.eval()
    with torch.no_grad():
        return {name: float(value) for name, value in setup.evaluate(trainer.model, "test").items()}


def train(task_name: str, **options) -> dict[str, float]:
    """Train the task's model (``options`` as :func:`fit`'s) and return its test metrics."""
    return test_metrics(*fit(task_name, **options))


def main(argv: list[str] | None = None) -> int:
    width = max(map(len, TASKS))
    tasks = "\n".join(f"  {name:<{width}}  {task.description}" for name, task in TASKS.items())
    parser = argparse.ArgumentParser(prog="python -m seqmodels.train", description=__doc__.split("\n\n")[0],
                                     epilog=f"tasks:\n{tasks}", formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("task", choices=sorted(TASKS), metavar="TASK", help="what to train (listed below)")
    parser.add_argument("--device", help="cuda, mps or cpu (default: the fastest available)")
    parser.add_argument("--epochs", type=int, help="passes over the training data (default: the task's)")
    parser.add_argument("--hand-written", action="store_true", help="the course's implementations, not the fast path")
    parser.add_argument("--cuda-graphs", action="store_true",
                        help="with --hand-written on a GPU: replay the course's recurrent loops from CUDA graphs")
    parser.add_argument("--scale", choices=sorted(SCALES), default="cpu",
                        help="cpu (default: every task well within a minute on 2 cores) or gpu (wider, 8x the data)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lr", type=float, help="Adam's learning rate (default: the task's)")
    args = parser.parse_args(argv)

    device = pick_device(args.device)
    if args.cuda_graphs and (refusal := cuda_graphs_refusal(args.hand_written, device)):
        parser.error(refusal)
    with data_parallel(device):  # under torchrun: this run's process group, destroyed at its end
        result = train(args.task, device=device, epochs=args.epochs, hand_written=args.hand_written,
                       cuda_graphs=args.cuda_graphs, scale=args.scale, seed=args.seed, lr=args.lr)
    if is_main():  # every rank has the same metrics
        print(f"{args.task} on {device}: " + ", ".join(f"{name} {value:.4f}" for name, value in result.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
