"""Benchmark: every training task of ``python -m seqmodels.train``, timed end to end, with its test metric.

    .venv/bin/python bench/tasks.py [--device cuda|cpu] [--scale cpu|gpu] [--hand-written] [--cuda-graphs]
                                    [--cpu-anchor] [--tasks T ...] [--json PATH]

Each task trains for its own number of epochs, as the command line does (data generation and
evaluation included, imports not), without the progress bar, after one untimed warm-up epoch.
Columns: seconds, and training throughput (the tokens, or examples, that the task's step counts,
per second, averaged over the epochs). The anchor of each row is the fast path (PyTorch's fused
layers) at ``--scale``; ``--hand-written`` adds the course's own implementations of the same model
(``--cuda-graphs``: their recurrent loops replayed from CUDA graphs; other layers as they are), with the ratio of the two times; ``--cpu-anchor``
also trains the task at the CPU scale on the CPU (2 threads, a student's laptop) and gives the
throughput ratio of the run at ``--scale`` on the device to it (target for ``--scale gpu`` on a
GPU: at least 5x). On the CPU, torch uses 2 threads.
"""
import argparse
import statistics
import sys
import time
from pathlib import Path

import torch

from report import bench_device, run_facts, synchronize, write_json
from seqmodels.tasks import TASKS
from seqmodels.train import fit, test_metrics


def timed_training(task: str, device: torch.device, **options) -> dict:
    synchronize(device)
    start = time.perf_counter()
    trainer, setup = fit(task, device=device, progress=False, **options)
    metrics = test_metrics(trainer, setup)
    synchronize(device)
    return {"seconds": time.perf_counter() - start, "metrics": metrics,
            "tokens_per_s": statistics.mean(trainer.history["tokens_per_s"])}


def described(metrics: dict[str, float]) -> str:
    return ", ".join(f"{name.removeprefix('test_')} {value:.3f}" for name, value in metrics.items())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", help="default: the fastest available")
    parser.add_argument("--scale", choices=["cpu", "gpu"], default="cpu", help="the tasks' size (default: cpu)")
    parser.add_argument("--hand-written", action="store_true", help="also time the course's implementations")
    parser.add_argument("--cuda-graphs", action="store_true", help="the hand-written path replayed from CUDA graphs")
    parser.add_argument("--cpu-anchor", action="store_true", help="also train at the CPU scale on 2 CPU threads")
    parser.add_argument("--tasks", nargs="+", choices=sorted(TASKS), default=list(TASKS), metavar="TASK")
    parser.add_argument("--epochs", type=int, help="train every task this many epochs (default: each its own)")
    parser.add_argument("--json", type=Path, help="also write the results here (after every task)")
    args = parser.parse_args()
    device = bench_device(args.device)
    facts = run_facts(device, scale=args.scale, cuda_graphs=args.cuda_graphs)
    cpu = torch.device("cpu")
    if args.cpu_anchor:
        torch.set_num_threads(2)
    header = f"{'task':<22} {'epochs':>6} {'fast path s':>12} {'tokens/s':>11}"
    if args.hand_written:
        header += f" {'hand-written s':>15} {'ratio':>8}"
    if args.cpu_anchor:
        header += f" {'CPU s':>7} {'CPU tokens/s':>13} {'vs CPU':>7}"
    print(header + "  test metrics (fast path; hand-written; CPU)")

    # one untimed epoch first: the first run in a process pays for lazy set-up
    fit(args.tasks[0], device=device, epochs=1, progress=False, scale=args.scale)
    if args.hand_written:
        fit(args.tasks[0], device=device, epochs=1, progress=False, scale=args.scale, hand_written=True)
    results = {}
    for task in args.tasks:
        epochs = args.epochs or TASKS[task].epochs
        fast = timed_training(task, device, scale=args.scale, epochs=epochs)
        results[task] = {"epochs": epochs, "fast": fast}
        line = f"{task:<22} {epochs:>6} {fast['seconds']:>12.1f} {fast['tokens_per_s']:>11,.0f}"
        shown = [described(fast["metrics"])]
        if args.hand_written:
            hand = timed_training(task, device, scale=args.scale, epochs=epochs, hand_written=True,
                                  cuda_graphs=args.cuda_graphs)
            results[task]["hand_written"] = hand
            line += f" {hand['seconds']:>15.1f} {hand['seconds'] / fast['seconds']:>7.2f}x"
            shown.append(described(hand["metrics"]))
        if args.cpu_anchor:
            anchor = timed_training(task, cpu, scale="cpu", epochs=epochs)
            results[task]["cpu_anchor"] = anchor
            line += (f" {anchor['seconds']:>7.1f} {anchor['tokens_per_s']:>13,.0f}"
                     f" {fast['tokens_per_s'] / anchor['tokens_per_s']:>6.1f}x")
            shown.append(described(anchor["metrics"]))
        print(f"{line}  {'; '.join(shown)}", flush=True)
        write_json(args.json, {"facts": facts, "tasks": results})  # each task's row kept if a later one is stopped
    return 0


if __name__ == "__main__":
    sys.exit(main())
