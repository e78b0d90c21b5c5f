"""Train one of the course's models from the command line and report its metrics.

    python -m seqmodels.train TASK [--device cuda] [--epochs N] [--hand-written] [--seed S]

``--hand-written`` runs the course's own implementations of the model's parts instead of
PyTorch's fast path (same results, slower); ``--help`` lists the tasks.
"""
import argparse
import sys

import torch

from seqmodels.tasks import TASKS
from seqmodels.training import Trainer, pick_device, seed_everything


def train(task_name: str, *, device: str | torch.device | None = None, epochs: int | None = None,
          hand_written: bool = False, seed: int = 0, lr: float = 3e-3, progress: bool = True) -> dict[str, float]:
    """Train the task's model (for its own number of epochs unless told) and return its test metrics."""
    task, device = TASKS[task_name], pick_device(str(device) if device is not None else None)
    seed_everything(seed)  # before the model is built: same seed, same initial weights
    setup = task.build(device=device, hand_written=hand_written, seed=seed)
    trainer = Trainer(setup.model, setup.step, lr=lr, device=device, seed=seed, progress=progress)
    trainer.fit(setup.train, epochs=epochs or task.epochs, evaluate=lambda model: setup.evaluate(model, "validation"))
    trainer.model.eval()
    with torch.no_grad():
        return {name: float(value) for name, value in setup.evaluate(trainer.model, "test").items()}


def main(argv: list[str] | None = None) -> int:
    width = max(map(len, TASKS))
    tasks = "\n".join(f"  {name:<{width}}  {task.description}" for name, task in TASKS.items())
    parser = argparse.ArgumentParser(prog="python -m seqmodels.train", description=__doc__.split("\n\n")[0],
                                     epilog=f"tasks:\n{tasks}", formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("task", choices=sorted(TASKS), metavar="TASK", help="what to train (listed below)")
    parser.add_argument("--device", help="cuda, mps or cpu (default: the fastest available)")
    parser.add_argument("--epochs", type=int, help="passes over the training data (default: the task's)")
    parser.add_argument("--hand-written", action="store_true", help="the course's implementations, not the fast path")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lr", type=float, default=3e-3)
    args = parser.parse_args(argv)

    device = pick_device(args.device)
    result = train(args.task, device=device, epochs=args.epochs, hand_written=args.hand_written, seed=args.seed,
                   lr=args.lr)
    print(f"{args.task} on {device}: " + ", ".join(f"{name} {value:.4f}" for name, value in result.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
