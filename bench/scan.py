"""Benchmark: chapter 14's linear recurrence h_t = a_t ⊙ h_{t−1} + b_t (Mamba's scan over a D·N state), three ways.

    .venv/bin/python bench/scan.py [--device cuda|cpu] [--lengths 1024 4096 ...] [--rounds N] [--json PATH]

Rows, for one sequence (batch 1) of width D = 256 with N = 16 states per channel, so a D·N = 4,096-wide state:

  loop over t       anchor: the recurrence one step at a time (chapter 04's way, chapter 14's oracle)
  parallel scan     ``seqmodels.linear_scan``: Hillis-Steele, ⌈log₂ L⌉ rounds over the whole sequence
  chunked           ``seqmodels.layers.scan_chunked.chunked_linear_scan``: chunks of ⌈√L⌉ steps
  fast path         ``seqmodels.layers.scan_compiled.fast_linear_scan``: on a CPU a compiled loop over t (issue
                    39's target on 2 CPU threads: >= 10x the loop at L = 4,096); on a GPU ``linear_scan``
  compiled scan     on CUDA only, at L = 4,096 only (each length is compiled anew, tens of seconds):
                    ``torch.compile(linear_scan)``, each round's ops fused into a few kernels
  memory floor      not a scan: ``torch.add(a, b, out=h)`` into a tensor made beforehand, which reads a and b and
                    writes h once at this machine's streaming bandwidth, as any scan must at least: the loop's
                    time over this one's is the most any fast path can gain here (the roofline)

Reported: tokens/s of each at each length (L = 1,024 to 16,384), each one's ratio to the loop in the same
round, and the floor's bandwidth (3 · L · D·N · 4 bytes over its seconds). Rows are timed ``--rounds`` times, interleaved, the best kept; on a busy machine only the ratios within one
run mean anything. The parallel scan holds about six [L, D·N] float32 tensors at once (1.6 GB at L = 16,384):
``--parallel-max`` skips it above a length. ``measure(device)`` returns the results for the GPU session to call.
"""
import argparse
import sys
import time
from pathlib import Path

import torch
from report import bench_device, run_facts, synchronize, write_json
from seqmodels.layers.scan import linear_scan
from seqmodels.layers.scan_chunked import chunked_linear_scan
from seqmodels.layers.scan_compiled import fast_linear_scan

WIDTH, STATES = 256, 16


def loop_scan(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    h, states = torch.zeros_like(b[:, 0]), []
    for t in range(a.shape[1]):
        h = a[:, t] * h + b[:, t]
        states.append(h)
    return torch.stack(states, dim=1)


def views(device: torch.device, L: int) -> dict:
    rows = {"loop over t": loop_scan, "parallel scan": linear_scan, "chunked": chunked_linear_scan,
            "fast path": fast_linear_scan}
    if device.type == "cuda" and L == 4096:
        rows["compiled scan"] = torch.compile(linear_scan, dynamic=False)
    return rows | {"memory floor": lambda a, b, out=None: torch.add(a, b, out=out)}


def seconds(view, a, b, device, out=None) -> float:
    synchronize(device)
    start = time.perf_counter()
    with torch.no_grad():
        view(a, b, **({} if out is None else {"out": out}))
    synchronize(device)
    return time.perf_counter() - start


def measure(device: torch.device, lengths=(1024, 2048, 4096, 8192, 16384), rounds: int = 3,
            parallel_max: int = 16384) -> dict:
    results = {"facts": run_facts(device, width=WIDTH, states=STATES, rounds=rounds), "rows": []}
    print(f"{'L':>7} {'view':>16} {'tokens/s':>12} {'x loop':>8}")
    for L in lengths:
        g = torch.Generator().manual_seed(L)
        a = (torch.rand(1, L, WIDTH * STATES, generator=g) * 0.5 + 0.5).to(device)
        b = torch.randn(1, L, WIDTH * STATES, generator=g).to(device)
        out = torch.empty_like(b)  # the floor's output, made (and its pages touched) before it is timed
        rows = {name: view for name, view in views(device, L).items() if name != "parallel scan" or L <= parallel_max}
        if "compiled scan" in rows:
            seconds(rows["compiled scan"], a, b, device)  # compiled for this length before the rounds
        best = {name: float("inf") for name in rows}
        for _ in range(rounds):  # interleaved, so that a burst of load hits every view alike
            for name, view in rows.items():
                best[name] = min(best[name], seconds(view, a, b, device, out if name == "memory floor" else None))
        for name, s in best.items():
            row = {"L": L, "view": name, "tokens_per_s": L / s, "ratio_to_loop": best["loop over t"] / s}
            if name == "memory floor":
                row["gb_per_s"] = 3 * a.numel() * a.element_size() / s / 1e9
            results["rows"].append(row)
            print(f"{L:>7,} {name:>16} {row['tokens_per_s']:>12,.0f} {row['ratio_to_loop']:>7.1f}x"
                  + (f"  ({row['gb_per_s']:.1f} GB/s)" if "gb_per_s" in row else ""))
        del a, b, out
    return results


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device")
    parser.add_argument("--lengths", type=int, nargs="+", default=[1024, 2048, 4096, 8192, 16384])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--parallel-max", type=int, default=16384)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    device = bench_device(args.device)
    write_json(args.json, measure(device, args.lengths, args.rounds, args.parallel_max))


if __name__ == "__main__":
    main(sys.argv[1:])
