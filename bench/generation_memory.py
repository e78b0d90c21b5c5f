"""Benchmark: the memory one generated token costs, chapter 14's Mamba language model against chapter 13's GPT with its
key-value cache, at comparable parameter counts.

    .venv/bin/python bench/generation_memory.py [--device cuda|cpu] [--preset gpu|cpu|tiny] [--tokens 512 4096]
                                                [--json PATH]

Each model generates ``--tokens`` new tokens (512 and 4,096 by default) after an 8-token prompt, batch 1, at
temperature 1 with a seeded generator. Reported for each model and length:

  held        the bytes the model carries from one token to the next, read from the tensors themselves: the GPT's
              key and value buffers (what ``GPT._block`` is handed) and the Mamba blocks' states (what
              ``MambaLM.step`` returns: the convolution's last inputs and the scan's state h), at the last token
  per token   held / (prompt + tokens): what one more token of context costs (the GPT's grows with t, Mamba's
              does not: its state has a fixed size)
  peak        on CUDA, the most memory in use during the generation above what was in use before it (the
              allocator's ``max_memory_allocated``); a CPU keeps no such count, and the growth of a fresh process's
              peak resident memory (``ru_maxrss``), tried on 2026-12-06, stayed at 0 (importing torch and building
              the model peak higher than a megabyte of cache), so a CPU run leaves it out
  tokens/s    of the same generation

Presets: cpu = chapter 13's benchmark GPT (width 128, 4 heads, 2 blocks, feed-forward 512, vocabulary 2k) and a
Mamba LM of width 128 with as many blocks as bring its parameter count closest to the GPT's; gpu = width 512,
8 heads, 6 blocks, feed-forward 2,048, vocabulary 8k, in float32; tiny = for the tests. ``measure(device, preset,
tokens)`` returns the results for the GPU session to call.
"""
import argparse
import sys
import time
from pathlib import Path

import torch
from report import bench_device, run_facts, synchronize, write_json
from seqmodels.models.gpt import GPT
from seqmodels.models.mamba import MambaLM

PRESETS = {"gpu": dict(dim=512, heads=8, layers=6, feedforward=2048, vocab=8_000),
           "cpu": dict(dim=128, heads=4, layers=2, feedforward=512, vocab=2_000),
           "tiny": dict(dim=16, heads=2, layers=1, feedforward=32, vocab=50)}
PROMPT = 8
MODELS = ("GPT, key-value cache", "Mamba LM, fixed state")


def parameters(model: torch.nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())


def build(name: str, preset: str, device: torch.device) -> torch.nn.Module:
    shape = PRESETS[preset]
    torch.manual_seed(0)
    if name == MODELS[0]:
        model = GPT(shape["vocab"], dim=shape["dim"], heads=shape["heads"], layers=shape["layers"],
                    feedforward=shape["feedforward"], positions="rope")
    else:
        target = parameters(build(MODELS[0], preset, torch.device("cpu")))
        one, two = (parameters(MambaLM(shape["vocab"], dim=shape["dim"], layers=n)) for n in (1, 2))
        layers = max(1, round((target - one) / (two - one)) + 1)  # each block adds two − one parameters
        torch.manual_seed(0)
        model = MambaLM(shape["vocab"], dim=shape["dim"], layers=layers)
    return model.to(device).eval()


def nbytes(tensors) -> int:
    """The bytes of distinct storages among ``tensors`` (a view of one already counted adds nothing)."""
    storages = {t.untyped_storage().data_ptr(): t.untyped_storage().nbytes() for t in tensors}
    return sum(storages.values())


def watch_held(model: torch.nn.Module) -> dict:
    """Wrap the model's method that receives (GPT) or returns (Mamba) what it carries between tokens, so that
    ``seen["bytes"]`` holds its size at the latest token."""
    seen = {"bytes": 0}
    if isinstance(model, GPT):
        block, buffers = model._block, {}

        def watched_block(layer, x, start, cache):
            buffers[id(layer)] = cache  # this block's key and value buffers
            seen["bytes"] = nbytes(t for pair in buffers.values() for t in pair)
            return block(layer, x, start, cache)
        model._block = watched_block
    else:
        step = model.step

        def watched_step(ids_t, states):
            logits, new = step(ids_t, states)
            seen["bytes"] = nbytes(t for state in new for t in state)
            return logits, new
        model.step = watched_step
    return seen


def generate(model: torch.nn.Module, tokens: int, device: torch.device) -> dict:
    """One generation of ``tokens`` after the prompt: tokens/s, the bytes held at the end, the CUDA peak."""
    seen = watch_held(model)
    prompt = torch.randint(model.embedding.num_embeddings, (1, PROMPT), generator=torch.Generator().manual_seed(0))
    generator = torch.Generator(device).manual_seed(0)
    prompt = prompt.to(device)
    if device.type == "cuda":
        torch.cuda.reset_peak_memory_stats(device)
        before = torch.cuda.memory_allocated(device)
    synchronize(device)
    start = time.perf_counter()
    model.generate(prompt, tokens, generator)
    synchronize(device)
    seconds = time.perf_counter() - start
    row = {"tokens_per_s": tokens / seconds, "held_bytes": seen["bytes"],
           "held_bytes_per_token": seen["bytes"] / (PROMPT + tokens)}
    if device.type == "cuda":
        row["peak_bytes"] = torch.cuda.max_memory_allocated(device) - before
    return row


def measure(device: torch.device, preset: str, tokens=(512, 4096)) -> dict:
    models = {name: build(name, preset, device) for name in MODELS}
    facts = run_facts(device, preset=preset, prompt=PROMPT, **PRESETS[preset],
                      parameters={name: parameters(model) for name, model in models.items()},
                      mamba_layers=len(models[MODELS[1]].blocks))
    rows = []
    print(f"{'model':<24} {'tokens':>7} {'held KiB':>10} {'bytes/token':>12} {'peak KiB':>10} {'tokens/s':>10}")
    for count in tokens:
        for name, model in models.items():
            row = {"model": name, "tokens": count, **generate(model, count, device)}
            rows.append(row)
            peak = f"{row['peak_bytes'] / 1024:>10,.0f}" if "peak_bytes" in row else f"{'-':>10}"
            print(f"{name:<24} {count:>7,} {row['held_bytes'] / 1024:>10,.1f} {row['held_bytes_per_token']:>12,.1f}"
                  f" {peak} {row['tokens_per_s']:>10,.1f}")
    return {"facts": facts, "rows": rows}


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", help="default: the fastest available")
    parser.add_argument("--preset", choices=PRESETS, help="default: gpu on CUDA, cpu otherwise")
    parser.add_argument("--tokens", type=int, nargs="+", default=[512, 4096])
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    device = bench_device(args.device)
    write_json(args.json, measure(device, args.preset or ("gpu" if device.type == "cuda" else "cpu"), args.tokens))


if __name__ == "__main__":
    main(sys.argv[1:])
