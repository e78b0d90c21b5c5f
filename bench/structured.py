"""Benchmark: the reference CTC loss against F.ctc_loss, forward and backward (the CRF rows come with chapter 10).

    .venv/bin/python bench/structured.py [--device cuda|cpu] [--repeats 10]

Shapes of the target: batch 32, 200 frames, 50 target symbols, 28 classes; float32.
Prints milliseconds per forward+backward, the ratio to PyTorch (measured in the same run;
target: within 10x) and the largest relative difference of the losses (target: 1e-5).
"""
import argparse
import sys
import time

import torch
from torch.nn import functional as F

from seqmodels.structured.ctc import ctc_loss
from seqmodels.training import pick_device


def timed(fn, device: torch.device, repeats: int) -> tuple[float, torch.Tensor]:
    fn()  # warm-up
    if device.type == "cuda":
        torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(repeats):
        loss = fn()
    if device.type == "cuda":
        torch.cuda.synchronize()
    return (time.perf_counter() - start) / repeats * 1000, loss


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device")
    parser.add_argument("--repeats", type=int, default=10)
    args = parser.parse_args()
    device = pick_device(args.device)
    if device.type == "cpu":
        torch.set_num_threads(2)
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

    theirs_ms, theirs = timed(run(F.ctc_loss), device, args.repeats)
    ours_ms, ours = timed(run(ctc_loss), device, args.repeats)
    difference = ((ours - theirs).abs() / theirs.abs()).max().item()
    print(f"device: {device} | torch {torch.__version__} | T={T} B={B} S<={S} C={C}")
    print(f"{'CTC loss, forward+backward':<28} {'ms':>9} {'vs F.ctc_loss':>14}")
    print(f"{'F.ctc_loss':<28} {theirs_ms:>9.2f} {1.0:>13.2f}x")
    print(f"{'seqmodels ctc_loss':<28} {ours_ms:>9.2f} {ours_ms / theirs_ms:>13.2f}x")
    print(f"largest relative difference of the losses: {difference:.2e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
