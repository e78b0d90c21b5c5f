"""Benchmark: the reference CTC loss against F.ctc_loss, and the reference linear-chain CRF against pytorch-crf.

    .venv/bin/python bench/structured.py [--device cuda|cpu] [--repeats 10] [--json PATH]

CTC: batch 32, 200 frames, up to 50 target symbols, 28 classes; forward+backward of the readable
``ctc_loss`` (a loop over frames, autograd through it) and of ``fused_ctc_loss`` (α and β in one Triton
kernel launch each on a GPU, the gradient from them; targets: fused within 5x of F.ctc_loss on a GPU,
readable within 10x on a CPU). CRF: batch 64, length 50 (padded rows too), 20 tags; NLL forward+backward
with log Z by the forward-algorithm loop (``crf_log_partition``, the chapter's) and by the log-depth scan
(``crf_log_partition_scan``; ``crf_nll`` takes the scan on a GPU unless K is large, the loop on a CPU;
target: crf_nll at most 0.2x pytorch-crf on a GPU), and Viterbi decoding of the whole batch by the loop
(``crf_viterbi_batch``) and by one Triton kernel (``crf_viterbi_fused``, the loop where Triton does not
run; target at most 0.1x pytorch-crf on a GPU). pytorch-crf is a benchmark-only dependency
(pip install -r bench/requirements.txt); its rows are skipped when it is missing.
Float32; ratios are to the anchor measured in the same run. Losses and paths must agree: CTC losses
within 1e-5 (largest relative difference) of F.ctc_loss computed in float64, CRF losses within 1e-5 of
pytorch-crf's, the same best paths and scores. The CTC gradients' largest difference from float64 is
printed too, relative to the largest gradient: F.ctc_loss's own is ~3e-4 at float32 (its γ = exp(α + β -
log p) cancels large numbers), the readable loop's ~4e-5, the fused loss's ~5e-6 (scaled α and β).
"""
import argparse
import sys
import time
from pathlib import Path

import torch
from torch.nn import functional as F

from report import bench_device, run_facts, synchronize, write_json

from seqmodels.structured.crf import (_gold_scores, crf_log_partition, crf_nll, crf_viterbi, crf_viterbi_batch,
                                      crf_viterbi_fused, log_partition_for)
from seqmodels.structured.crf_scan import crf_log_partition_scan
from seqmodels.structured.ctc import ctc_loss
from seqmodels.structured.ctc_fused import fused_ctc_loss


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


def relative(ours: torch.Tensor, theirs: torch.Tensor) -> float:
    """Largest elementwise relative difference (losses)."""
    return ((ours - theirs).abs() / theirs.abs()).max().item()


def relative_to_largest(ours: torch.Tensor, theirs: torch.Tensor) -> float:
    """Largest difference over the largest magnitude (gradients, whose small entries have no relative precision)."""
    return ((ours - theirs).abs().max() / theirs.abs().max()).item()


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
            return loss.detach(), logits.grad.clone()  # the gradient of the logits: F.ctc_loss's of log_probs differs
        return step

    names = {"F.ctc_loss": F.ctc_loss, "ctc_loss": ctc_loss, "fused_ctc_loss": fused_ctc_loss}
    ms, results = {}, {}
    for name, loss_fn in names.items():
        ms[name], results[name] = timed(run(loss_fn), device, repeats)
    exact = logits.detach().double().requires_grad_(True)  # the reference: F.ctc_loss in float64, not timed
    exact_losses = F.ctc_loss(exact.log_softmax(-1), targets, input_lengths, target_lengths, reduction="none")
    exact_grad, = torch.autograd.grad(exact_losses.sum(), exact)
    losses = {name: relative(loss.double(), exact_losses.detach()) for name, (loss, _) in results.items()}
    gradients = {name: relative_to_largest(grad.double(), exact_grad) for name, (_, grad) in results.items()}
    print(f"\nCTC: T={T} B={B} S<={S} C={C}")
    print(f"{'forward+backward':<34} {'ms':>9} {'ratio':>10}")
    print(row("F.ctc_loss (anchor)", ms["F.ctc_loss"], ms["F.ctc_loss"]))
    print(row("seqmodels ctc_loss", ms["ctc_loss"], ms["F.ctc_loss"]))
    print(row("seqmodels fused_ctc_loss", ms["fused_ctc_loss"], ms["F.ctc_loss"]))
    print("largest relative difference to F.ctc_loss in float64, of the losses / of the gradients: "
          + ", ".join(f"{name} {losses[name]:.1e} / {gradients[name]:.1e}" for name in names))
    return {"shape": {"T": T, "B": B, "S": S, "C": C}, "ms": ms,
            "ratio": {name: value / ms["F.ctc_loss"] for name, value in ms.items()},
            "loss_relative_difference": losses, "gradient_relative_difference": gradients,
            "largest_relative_difference": max(losses["ctc_loss"], losses["fused_ctc_loss"])}


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

    def nll_by(log_partition):  # crf_nll with log Z from one of the two algorithms
        return lambda: (log_partition(emissions, mask, *params) - _gold_scores(emissions, tags, mask, *params)).mean()

    ms, losses = {}, {}
    ms["pytorch-crf nll"], theirs = timed(nll(lambda: -crf(emissions, tags, mask, reduction="mean")), device, repeats)
    ms["crf_nll"], losses["crf_nll"] = timed(nll(lambda: crf_nll(emissions, tags, mask, *params)), device, repeats)
    for log_partition in (crf_log_partition, crf_log_partition_scan):
        name = f"nll by {log_partition.__name__}"
        ms[name], losses[name] = timed(nll(nll_by(log_partition)), device, repeats)
    with torch.no_grad():
        ms["pytorch-crf decode"], _ = timed(lambda: crf.decode(emissions, mask), device, repeats)
        ms["crf_viterbi_batch"], (loop_paths, loop_scores) = timed(lambda: crf_viterbi_batch(emissions, mask, *params),
                                                                   device, repeats)
        ms["crf_viterbi_fused"], (fused_paths, fused_scores) = timed(
            lambda: crf_viterbi_fused(emissions, mask, *params), device, repeats)
        one_by_one = [crf_viterbi(emissions[b, : int(n)], *params)[0] for b, n in enumerate(lengths)]
        same_paths = crf.decode(emissions, mask) == loop_paths == fused_paths == one_by_one
        same_scores = loop_scores == fused_scores
    takes = "scan" if log_partition_for(emissions) is crf_log_partition_scan else "loop"
    print(f"\nCRF: B={B} T<={T} K={K}; crf_nll takes the {takes} here")
    print(f"{'NLL forward+backward':<34} {'ms':>9} {'ratio':>10}")
    anchor = ms["pytorch-crf nll"]
    print(row("pytorch-crf (anchor)", anchor, anchor))
    print(row("seqmodels crf_nll", ms["crf_nll"], anchor))
    print(row("  log Z by the loop", ms["nll by crf_log_partition"], anchor))
    print(row("  log Z by the scan", ms["nll by crf_log_partition_scan"], anchor))
    print(f"{'Viterbi, whole batch':<34} {'ms':>9} {'ratio':>10}")
    anchor = ms["pytorch-crf decode"]
    print(row("pytorch-crf decode (anchor)", anchor, anchor))
    print(row("seqmodels crf_viterbi_batch", ms["crf_viterbi_batch"], anchor))
    print(row("seqmodels crf_viterbi_fused", ms["crf_viterbi_fused"], anchor))
    differences = {name: abs(loss - theirs).item() / abs(theirs).item() for name, loss in losses.items()}
    print("relative difference of the losses: " + ", ".join(f"{name} {d:.2e}" for name, d in differences.items())
          + f"; identical best paths: {same_paths}, identical scores (loop, fused): {same_scores}")
    return {"shape": {"B": B, "T": T, "K": K}, "ms": ms,
            "ratio": {name: value / ms["pytorch-crf decode" if "viterbi" in name else "pytorch-crf nll"]
                      for name, value in ms.items() if not name.startswith("pytorch-crf")},
            "loss_relative_difference": differences, "relative_difference": max(differences.values()),
            "identical_paths": same_paths, "identical_scores": same_scores}


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
