"""Benchmark: the GPT of chapter 13, generation with and without the key-value cache, and training against a
bare loop of PyTorch's own pre-norm encoder layers.

    .venv/bin/python bench/generation.py [--device cuda|cpu] [--preset gpu|cpu|tiny] [--rounds N] [--json PATH]

Generation: ``GPT.generate`` from an 8-token prompt, batch 1, for ``--tokens`` new tokens (512 by default),
sampling at temperature 1 with a seeded generator, once with the cache and once rerunning the whole prefix
at every step (the same tokens either way: tests/reference/models/test_gpt.py). Reported: tokens/s of
each, their ratio (target: the cache >= 5x faster at 512 tokens), and the peak memory of each run (CUDA:
``torch.cuda.max_memory_allocated`` above what the model holds; on a CPU the cache's own size, 2·N·t·D
numbers, which is what the cache adds).

Training: tokens/s (forward, backward, Adam step, through ``seqmodels.training.Trainer``) of

  bare nn.TransformerEncoderLayer  anchor: embeddings, N ``nn.TransformerEncoderLayer(norm_first=True,
                                   activation="gelu")`` called with a causal mask (``is_causal=True``), a final
                                   norm and the tied output layer: the same shapes, the same trainer path
  GPT (fast path)                  ``seqmodels.models.gpt.GPT``: the same weights' shapes, attention by
                                   ``F.scaled_dot_product_attention`` (target: >= 0.9x the anchor)

Rows are timed ``--rounds`` times, interleaved, the best kept. Presets: gpu = width 512, 8 heads, 6
blocks, feed-forward 2048, vocabulary 8k, batch 32 × 256 tokens, bf16 autocast (the trainer's); cpu =
width 128, 4 heads, 2 blocks, feed-forward 512, vocabulary 2k, batch 8 × 64, 2 threads.
``measure(device, preset)`` returns the results for the GPU session to call.
"""
import argparse
import sys
import time
from pathlib import Path

import torch
from torch import nn
from torch.nn import functional as F

from report import bench_device, run_facts, synchronize, write_json
from seqmodels.models.gpt import GPT
from seqmodels.training import Trainer

PRESETS = {"gpu": dict(dim=512, heads=8, layers=6, feedforward=2048, vocab=8_000, batch=32, length=256),
           "cpu": dict(dim=128, heads=4, layers=2, feedforward=512, vocab=2_000, batch=8, length=64),
           "tiny": dict(dim=16, heads=2, layers=1, feedforward=32, vocab=50, batch=2, length=8)}
PROMPT = 8


class BareGPT(nn.Module):
    """The anchor: the same network as PyTorch users write it, PyTorch's layers called with a causal mask."""

    def __init__(self, vocab: int, dim: int, heads: int, layers: int, feedforward: int, max_len: int):
        super().__init__()
        self.embedding, self.positions = nn.Embedding(vocab, dim), nn.Embedding(max_len, dim)
        self.blocks = nn.ModuleList(
            nn.TransformerEncoderLayer(dim, heads, feedforward, dropout=0.0, activation="gelu", batch_first=True,
                                       norm_first=True) for _ in range(layers))
        self.final_norm = nn.LayerNorm(dim)

    def loss(self, inputs: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        L = inputs.shape[1]
        x = self.embedding(inputs) + self.positions(torch.arange(L, device=inputs.device))
        causal = nn.Transformer.generate_square_subsequent_mask(L, device=inputs.device, dtype=x.dtype)
        for block in self.blocks:
            x = block(x, src_mask=causal, is_causal=True)
        logits = self.final_norm(x) @ self.embedding.weight.T
        return F.cross_entropy(logits.float().flatten(0, 1), targets.flatten())


def step(model, batch):
    inputs, targets = batch
    return model.loss(inputs, targets), targets.numel()


def training_rate(model: nn.Module, data: list, device: torch.device, warmup: int = 3) -> float:
    trainer = Trainer(model, step, device=device, clip_norm=None, progress=False)
    trainer.fit(data[:warmup], epochs=1)
    history = trainer.fit(data[warmup:], epochs=1)
    synchronize(device)
    return history["tokens_per_s"][-1]


def generation(model: GPT, tokens: int, cache: bool, device: torch.device) -> tuple[float, int]:
    """(tokens/s, peak bytes added) of generating ``tokens`` after an 8-token prompt."""
    prompt = torch.randint(model.embedding.num_embeddings, (1, PROMPT), generator=torch.Generator().manual_seed(0))
    prompt = prompt.to(device)
    generator = torch.Generator(device).manual_seed(0)
    if device.type == "cuda":
        torch.cuda.reset_peak_memory_stats(device)
        before = torch.cuda.memory_allocated(device)
    synchronize(device)
    start = time.perf_counter()
    model.generate(prompt, tokens, generator, cache=cache)
    synchronize(device)
    seconds = time.perf_counter() - start
    if device.type == "cuda":
        peak = torch.cuda.max_memory_allocated(device) - before
    else:  # what the cache holds: keys and values of every block and position
        peak = 2 * len(model.blocks) * (PROMPT + tokens) * model.embedding.embedding_dim * 4 if cache else 0
    return tokens / seconds, peak


def measure(device: torch.device, preset: str, tokens: int = 512, rounds: int = 2, iterations: int = 10) -> dict:
    shape = PRESETS[preset]
    sizes = dict(dim=shape["dim"], heads=shape["heads"], layers=shape["layers"], feedforward=shape["feedforward"])
    g = torch.Generator().manual_seed(0)
    data = []
    for _ in range(3 + iterations):
        ids = torch.randint(shape["vocab"], (shape["batch"], shape["length"] + 1), generator=g)
        data.append((ids[:, :-1], ids[:, 1:]))

    def fresh(kind):
        torch.manual_seed(0)
        if kind is BareGPT:
            return BareGPT(shape["vocab"], max_len=shape["length"], **sizes).to(device)
        return GPT(shape["vocab"], max_len=shape["length"], **sizes).to(device)

    models = {"bare nn.TransformerEncoderLayer": fresh(BareGPT), "GPT (fast path)": fresh(GPT)}
    best: dict[str, float] = {}
    for _ in range(rounds):
        for label, model in models.items():
            best[label] = max(best.get(label, 0.0), training_rate(model, data, device))
    torch.manual_seed(0)
    generator_model = GPT(shape["vocab"], positions="rope", **sizes).to(device).eval()
    if device.type == "cuda":
        generator_model = generator_model.to(torch.bfloat16)
    generation_rows = {}
    for _ in range(rounds):
        for cache in (False, True):
            rate, peak = generation(generator_model, tokens, cache, device)
            old = generation_rows.get(cache, (0.0, peak))
            generation_rows[cache] = (max(old[0], rate), peak)
    return {"facts": run_facts(device, preset=preset, tokens=tokens, rounds=rounds, **shape),
            "training_tokens_per_s": best,
            "generation": {("with the cache" if cache else "without the cache"): {"tokens_per_s": rate,
                                                                                  "peak_bytes": peak}
                           for cache, (rate, peak) in generation_rows.items()}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", help="default: the fastest available")
    parser.add_argument("--preset", choices=PRESETS, help="default: gpu on CUDA, cpu otherwise")
    parser.add_argument("--tokens", type=int, default=512, help="new tokens per generation (default 512)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    device = bench_device(args.device)
    results = measure(device, args.preset or ("gpu" if device.type == "cuda" else "cpu"), args.tokens, args.rounds)
    training = results["training_tokens_per_s"]
    anchor = training["bare nn.TransformerEncoderLayer"]
    print(f"{'GPT training':<32} {'tokens/s':>12} {'vs bare':>8}")
    for label, rate in training.items():
        print(f"{label:<32} {rate:>12,.0f} {rate / anchor:>7.2f}x")
    rows = results["generation"]
    base = rows["without the cache"]["tokens_per_s"]
    print(f"\n{'generation, ' + str(args.tokens) + ' tokens':<32} {'tokens/s':>12} {'vs none':>8} {'peak MiB':>9}")
    for label, row in rows.items():
        print(f"{label:<32} {row['tokens_per_s']:>12,.1f} {row['tokens_per_s'] / base:>7.2f}x"
              f" {row['peak_bytes'] / 2 ** 20:>9.2f}")
    write_json(args.json, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
