"""Benchmark: the reference CTC loss against F.ctc_loss, and the reference linear-chain CRF against pytorch-crf.

    .venv/bin/python bench/structured.py [--device cuda|cpu] [--repeats 10] [--json PATH]

CTC: batch 32, 200 frames, up to 50 target symbols, 28 classes; forward+backward (target: within
10x of F.ctc_loss). CRF: batch 64, length 50 (padded rows too), 20 tags; NLL forward+backward and
Viterbi decoding of the whole batch (target: at least as fast as pytorch-crf, a benchmark-only
dependency: pip install -r bench/requirements.txt; its rows are skipped when it is missing).
Float32; ratios are to the anchor measured in the same run; losses and paths must agree
(largest relative difference of the losses, target 1e-5).
"""
import argparse
import sys
import time
from pathlib import Path

import torch
from torch.nn import functional as F

from report import bench_device, run_facts, synchronize, write_json

from seqmodels.structured.crf import crf_nll, crf_viterbi, crf_viterbi_batch
from seqmodels.structured.ctc import ctc_loss


def timed(fn, device: torch.device, repeats: int) -> tuple[float, torch.Tensor]:
    fn()  # warm-up
    synchronize(device)
    start = time.perf_counter()
    for _ in range(repeats):
        loss = fn()
    synchronize(device)
    return (time.perf_counter() - start) / repeats * 1000, loss


def row(name: str, ms: float, anchor_ms: float) -> str:
    return f"{name:<34} {ms:>9.2f} {ms / anchor_ms:>9.2f}x"


def bench_ctc(device: torch.device, repeats: int) -> dict:
    g = torch.Generator().manual_seed(0)
    T, B, C, S = 200, 32, 28, 50
    logits = torch.randn(T, B, C, generator=g).to(device).requires_grad_(True)
    targets = torch.randint(1, C, (B, S), generator=g).to(device)
    input_lengths = torch.full((B,), T, device=device)
    target_lengths = torch.randint(S // 2, S + 1, (B,), generator=g).to(device)

    def run(loss_fn):
        def step():
            logits.grad = None
            loss = loss_fn(logits.log_softmax(-1), targets, input_lengths, target_lengths, reduction="none")
            loss.sum().backward()
            return loss.detach()
        return step

    theirs_ms, theirs = timed(run(F.ctc_loss), device, repeats)
    ours_ms, ours = timed(run(ctc_loss), device, repeats)
    difference = ((ours - theirs).abs() / theirs.abs()).max().item()
    print(f"\nCTC: T={T} B={B} S<={S} C={C}")
    print(f"{'forward+backward':<34} {'ms':>9} {'ratio':>10}")
    print(row("F.ctc_loss (anchor)", theirs_ms, theirs_ms))
    print(row("seqmodels ctc_loss", ours_ms, theirs_ms))
    print(f"largest relative difference of the losses: {difference:.2e}")
    return {"shape": {"T": T, "B": B, "S": S, "C": C}, "ms": {"F.ctc_loss": theirs_ms, "ctc_loss": ours_ms},
            "largest_relative_difference": difference}


def bench_crf(device: torch.device, repeats: int) -> dict | None:
    try:
        from torchcrf import CRF
    except ImportError:
        print("\nCRF: skipped (pytorch-crf is not installed: pip install -r bench/requirements.txt)")
        return None
    g = torch.Generator().manual_seed(0)
    B, T, K = 64, 50, 20
    crf = CRF(K, batch_first=True).to(device)
    emissions = torch.randn(B, T, K, generator=g).to(device).requires_grad_(True)
    tags = torch.randint(K, (B, T), generator=g).to(device)
    lengths = torch.randint(T // 2, T + 1, (B,), generator=g)
    lengths[0] = T
    mask = (torch.arange(T) < lengths.unsqueeze(1)).to(device)
    params = (crf.transitions, crf.start_transitions, crf.end_transitions)  # same conventions: [prev, cur]

    def nll(loss_fn):
        def step():
            emissions.grad = None
            loss = loss_fn()
            loss.backward()
            return loss.detach()
        return step

    theirs_ms, theirs = timed(nll(lambda: -crf(emissions, tags, mask, reduction="mean")), device, repeats)
    ours_ms, ours = timed(nll(lambda: crf_nll(emissions, tags, mask, *params)), device, repeats)
    with torch.no_grad():
        decode_theirs_ms, _ = timed(lambda: crf.decode(emissions, mask), device, repeats)
        decode_ours_ms, (ours_paths, _) = timed(lambda: crf_viterbi_batch(emissions, mask, *params), device, repeats)
        one_by_one = [crf_viterbi(emissions[b, : int(n)], *params)[0] for b, n in enumerate(lengths)]
        same_paths = crf.decode(emissions, mask) == ours_paths == one_by_one
    print(f"\nCRF: B={B} T<={T} K={K}")
    print(f"{'NLL forward+backward':<34} {'ms':>9} {'ratio':>10}")
    print(row("pytorch-crf (anchor)", theirs_ms, theirs_ms))
    print(row("seqmodels crf_nll", ours_ms, theirs_ms))
    print(f"{'Viterbi, whole batch':<34} {'ms':>9} {'ratio':>10}")
    print(row("pytorch-crf decode (anchor)", decode_theirs_ms, decode_theirs_ms))
    print(row("seqmodels crf_viterbi_batch", decode_ours_ms, decode_theirs_ms))
    difference = abs(ours - theirs).item() / abs(theirs).item()
    print(f"relative difference of the losses: {difference:.2e}; identical best paths: {same_paths}")
    return {"shape": {"B": B, "T": T, "K": K},
            "ms": {"pytorch-crf nll": theirs_ms, "crf_nll": ours_ms,
                   "pytorch-crf decode": decode_theirs_ms, "crf_viterbi_batch": decode_ours_ms},
            "relative_difference": difference, "identical_paths": same_paths}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device")
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    device = bench_device(args.device)
    facts = run_facts(device)
    write_json(args.json, {"facts": facts, "ctc": bench_ctc(device, args.repeats), "crf": bench_crf(device, args.repeats)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
