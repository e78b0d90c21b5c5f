"""What the benchmark scripts share: the device (2 torch threads on a CPU, like a student's laptop),
waiting for the GPU before reading a timer, the facts printed above each table, and the JSON file."""
import datetime
import json
import os
import platform
from pathlib import Path

import torch

from seqmodels.training import pick_device


def bench_device(name: str | None) -> torch.device:
    """``name``, or the fastest device available; on a CPU, torch is limited to 2 threads."""
    device = pick_device(name)
    if device.type == "cpu":
        torch.set_num_threads(2)
    return device


def synchronize(device: torch.device) -> None:
    """Wait for the GPU's queued work, so that a timer read next counts it (no-op on a CPU)."""
    if device.type == "cuda":
        torch.cuda.synchronize()


def run_facts(device: torch.device, **extra) -> dict:
    """Device (with the GPU's name), torch version, threads, date and ``extra``; printed as the table's first line."""
    name = (torch.cuda.get_device_name(device) if device.type == "cuda"
            else f"{platform.machine()}, {os.cpu_count()} cores")
    facts = {"device": f"{device.type} ({name})", "torch": torch.__version__, "threads": torch.get_num_threads(),
             "date": datetime.date.today().isoformat(), **extra}
    print(" | ".join(f"{key}: {value}" for key, value in facts.items()))
    return facts


def write_json(path: Path | None, results: dict) -> None:
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(results, indent=2) + "\n")
