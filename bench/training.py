"""Benchmark: training throughput of the LSTM language model, hand-written vs compiled vs cuDNN, and the trainer.

    .venv/bin/python bench/training.py [--device cuda|cpu] [--preset gpu|cpu] [--rounds N] [--json PATH]

Each row trains an LSTM language model (embedding, one LSTM layer, softmax over the vocabulary)
of the same shapes on the same random token batches and reports training tokens/s (forward,
backward and Adam step) after warm-up, with its ratio to the anchor measured in the same run;
every row is measured ``--rounds`` times, interleaved, and its best round kept (a row timed
first would otherwise pay for the GPU's clocks rising). Rows:

  nn.LSTM bare loop       anchor: nn.Embedding, nn.LSTM, nn.Linear and F.cross_entropy on the full
                          batch in a plain loop; nothing is read back from the device until the end
  RecurrentLM, bare loop  the course's model (padded batch, masked loss) in the same loop
  trainer (RecurrentLM)   seqmodels.training.Trainer training the course's model (target on a GPU: >= 0.9x)
  hand-written steps      the course's lstm_encode step loop on the same weights, in the plain loop
  hand-written, graphs    the same replayed from CUDA graphs, steps compiled (CUDA only; target: within
                          3x of cuDNN, i.e. >= 0.33x, with under 30 s of capture and compilation)

Presets: gpu = batch 64, length 128, hidden 512, vocab 10k (the targets' shapes);
cpu = batch 16, length 64, hidden 256, vocab 2k, on 2 threads. bf16 autocast on CUDA.
"""
import argparse
import sys
import time
from pathlib import Path

import torch
from torch import nn
from torch.nn import functional as F

from seqmodels.models.recurrent_lm import RecurrentLM
from report import bench_device, run_facts, synchronize, write_json
from seqmodels.training import Trainer

PRESETS = {"gpu": dict(batch=64, length=128, hidden=512, vocab=10_000),
           "cpu": dict(batch=16, length=64, hidden=256, vocab=2_000),
           "tiny": dict(batch=2, length=8, hidden=16, vocab=50)}  # the GPU session's rehearsal: every row, no figure
EMBEDDING = 128


class BareLSTMLM(nn.Module):
    """The anchor: the LSTM LM as a plain PyTorch user writes it, on full-length batches (no packing, no mask)."""

    def __init__(self, vocab: int, hidden: int):
        super().__init__()
        self.embedding, self.lstm = nn.Embedding(vocab, EMBEDDING), nn.LSTM(EMBEDDING, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def loss(self, inputs: torch.Tensor, targets: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        outputs, _ = self.lstm(self.embedding(inputs))
        return F.cross_entropy(self.out(outputs).flatten(0, 1), targets.flatten())


def batches(shape: dict, count: int, device: torch.device, seed: int = 0) -> list[tuple]:
    g = torch.Generator().manual_seed(seed)
    data = []
    for _ in range(count):
        ids = torch.randint(shape["vocab"], (shape["batch"], shape["length"] + 1), generator=g)
        mask = torch.ones(shape["batch"], shape["length"], dtype=torch.bool)
        data.append(tuple(t.to(device) for t in (ids[:, :-1], ids[:, 1:], mask)))
    return data


def step(model, batch):
    inputs, targets, mask = batch
    return model.loss(inputs, targets, mask), mask.sum()


def bare_loop(model, data, device, warmup: int) -> float:
    """Tokens/s of a plain loop: autocast forward, backward, Adam step."""
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    autocast = device.type == "cuda"
    tokens = sum(batch[2].numel() for batch in data[warmup:])  # every row is full length
    for i, batch in enumerate(data):
        if i == warmup:
            synchronize(device)
            start = time.perf_counter()
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=autocast):
            loss = model.loss(*batch)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
    synchronize(device)
    return tokens / (time.perf_counter() - start)


def trainer_loop(model, data, device, warmup: int) -> float:
    trainer = Trainer(model, step, device=device, clip_norm=None, progress=False)
    trainer.fit(data[:warmup], epochs=1)
    history = trainer.fit(data[warmup:], epochs=1)
    synchronize(device)
    return history["tokens_per_s"][-1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", help="default: the fastest available")
    parser.add_argument("--preset", choices=PRESETS, help="default: gpu on CUDA, cpu otherwise")
    parser.add_argument("--iterations", type=int, default=20, help="timed iterations per row (after 5 warm-up)")
    parser.add_argument("--rounds", type=int, default=2, help="timings of every row, interleaved; the best is kept")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    device = bench_device(args.device)
    shape = PRESETS[args.preset or ("gpu" if device.type == "cuda" else "cpu")]
    warmup = 5
    data = batches(shape, warmup + args.iterations, device)

    def fresh(hand_written: bool = False):
        torch.manual_seed(0)
        return RecurrentLM(shape["vocab"], EMBEDDING, shape["hidden"], cell="lstm", hand_written=hand_written).to(device)

    torch.manual_seed(0)
    models = {"nn.LSTM bare loop": BareLSTMLM(shape["vocab"], shape["hidden"]).to(device),
              "RecurrentLM, bare loop": fresh(), "trainer (RecurrentLM)": fresh(), "hand-written steps": fresh(True)}
    capture_seconds = None
    if device.type == "cuda":
        graphed = models["hand-written, graphs"] = fresh(True)
        graphed.recurrent.use_cuda_graphs()
        start = time.perf_counter()
        bare_loop(graphed, data[:1], device, warmup=0)  # captures the graph and compiles the steps
        capture_seconds = time.perf_counter() - start
    best = {}
    for _ in range(args.rounds):
        for label, model in models.items():
            run = trainer_loop if label.startswith("trainer") else bare_loop
            best[label] = max(best.get(label, 0.0), run(model, data, device, warmup))
    rows = list(best.items())

    facts = run_facts(device, **shape, rounds=args.rounds)
    anchor = rows[0][1]
    print(f"{'LSTM LM training':<24} {'tokens/s':>12} {'vs nn.LSTM':>11}")
    for label, rate in rows:
        print(f"{label:<24} {rate:>12,.0f} {rate / anchor:>10.2f}x")
    if capture_seconds is not None:
        print(f"CUDA graphs: {capture_seconds:.1f} s to capture and compile")
    write_json(args.json, {"facts": facts, "tokens_per_s": dict(rows), "capture_seconds": capture_seconds})
    return 0


if __name__ == "__main__":
    sys.exit(main())
