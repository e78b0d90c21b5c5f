"""Benchmark: every training task of ``python -m seqmodels.train``, timed end to end, with its test metric.

    .venv/bin/python bench/tasks.py [--device cuda|cpu] [--hand-written] [--tasks T ...] [--json PATH]

Each task trains for its own number of epochs, as the command line does (data generation and
evaluation included, imports not), without the progress bar, after one untimed warm-up epoch.
The anchor of each row is the fast path (PyTorch's fused layers); ``--hand-written`` adds the
course's own implementations of the same model, with the ratio of the two times. On the CPU, torch uses 2 threads (a student's laptop).
"""
import argparse
import sys
import time
from pathlib import Path

import torch

from report import bench_device, run_facts, synchronize, write_json
from seqmodels.tasks import TASKS
from seqmodels.train import train


def timed_training(task: str, device: torch.device, hand_written: bool) -> tuple[float, dict[str, float]]:
    synchronize(device)
    start = time.perf_counter()
    metrics = train(task, device=device, hand_written=hand_written, progress=False)
    synchronize(device)
    return time.perf_counter() - start, metrics


def described(metrics: dict[str, float]) -> str:
    return ", ".join(f"{name.removeprefix('test_')} {value:.3f}" for name, value in metrics.items())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", help="default: the fastest available")
    parser.add_argument("--hand-written", action="store_true", help="also time the course's implementations")
    parser.add_argument("--tasks", nargs="+", choices=sorted(TASKS), default=list(TASKS), metavar="TASK")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    device = bench_device(args.device)
    facts = run_facts(device)
    header = f"{'task':<22} {'epochs':>6} {'fast path s':>12}"
    if args.hand_written:
        header += f" {'hand-written s':>15} {'ratio':>8}"
    print(header + "  test metrics (fast path; hand-written)")

    for hand_written in (False, True):  # one untimed epoch first: the first run in a process pays for lazy set-up
        train(args.tasks[0], device=device, epochs=1, hand_written=hand_written, progress=False)
    results = {}
    for task in args.tasks:
        seconds, metrics = timed_training(task, device, hand_written=False)
        results[task] = {"epochs": TASKS[task].epochs, "fast": {"seconds": seconds, "metrics": metrics}}
        line = f"{task:<22} {TASKS[task].epochs:>6} {seconds:>12.1f}"
        shown = described(metrics)
        if args.hand_written:
            hand_seconds, hand_metrics = timed_training(task, device, hand_written=True)
            results[task]["hand_written"] = {"seconds": hand_seconds, "metrics": hand_metrics}
            line += f" {hand_seconds:>15.1f} {hand_seconds / seconds:>7.2f}x"
            shown += f"; {described(hand_metrics)}"
        print(f"{line}  {shown}", flush=True)
    write_json(args.json, {"facts": facts, "tasks": results})
    return 0


if __name__ == "__main__":
    sys.exit(main())
