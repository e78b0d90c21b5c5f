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


def main(argv: list[str] | None = None) -> int:
    tasks = "\n".join(f"  {name:<12} {task.description}" for name, task in TASKS.items())
    parser = argparse.ArgumentParser(prog="python -m seqmodels.train", description=__doc__.split("\n\n")[0],
                                     epilog=f"tasks:\n{tasks}", formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("task", choices=sorted(TASKS), metavar="TASK", help="what to train (listed below)")
    parser.add_argument("--device", help="cuda, mps or cpu (default: the fastest available)")
    parser.add_argument("--epochs", type=int, help="passes over the training data (default: the task's)")
    parser.add_argument("--hand-written", action="store_true", help="the course's implementations, not the fast path")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lr", type=float, default=3e-3)
    args = parser.parse_args(argv)

    task, device = TASKS[args.task], pick_device(args.device)
    seed_everything(args.seed)  # before the model is built: same seed, same initial weights
    setup = task.build(device=device, hand_written=args.hand_written, seed=args.seed)
    trainer = Trainer(setup.model, setup.step, lr=args.lr, device=device, seed=args.seed)
    trainer.fit(setup.train, epochs=args.epochs or task.epochs, evaluate=lambda model: setup.evaluate(model, "validation"))
    trainer.model.eval()
    with torch.no_grad():
        result = setup.evaluate(trainer.model, "test")
    print(f"{task.name} on {device}: " + ", ".join(f"{name} {value:.4f}" for name, value in result.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
