"""The GPU day in one command: every figure the course needs from a GPU, in one device call of at most 8 minutes.

    make gpu-session OUT=dir                  # python3 bench/gpu_session.py --out dir (on the GPU machine)
    python3 bench/gpu_session.py --out DIR [--quick] [--parts NAME ...] [--total S] [--budget NAME=S ...]

Parts, in priority order, each a subprocess with its own time budget (cut to what is left of --total):

  cuda-tests  (a) the CUDA variants of the reference tests (bench/gpu_check.py --no-notebooks)
  notebooks   (b) every solution notebook on the GPU, with each training demo's scale and metric
                  (bench/gpu_check.py --no-tests --no-cpu)
  chapter12   (c) chapter 12's seconds per epoch (attention RNN and transformer, at both scales) and its
                  L-sweep, on the GPU and on one CPU thread (seqmodels.tasks.date_models)
  chapter14   (d) chapter 14's scan at L = 1,024 to 16,384 (bench/scan.py: the loop, the parallel scan, the fast
                  path, torch.compile's scan, the memory floor) and the generation memory of its Mamba LM against
                  the GPT's key-value cache at 512 and 4,096 tokens (bench/generation_memory.py)
  tasks       (e) every task at --scale gpu on the GPU (bench/tasks.py), against the CPU scale on 2 CPU
                  threads of the same host: that anchor runs from the start beside the GPU parts
  benchmarks  (f) bench/training.py, then bench/structured.py

Each part's result lands in DIR as soon as it ends: DIR/<part>.json (for benchmarks: training.json and
structured.json, ready for bench/results/*-cuda.json), its printed output appended to DIR/session.log, and
DIR/session.json (every part's status and seconds) rewritten. A part that fails or outruns its budget is
stopped (its process group killed) and recorded as such; the parts after it still run. That is 8 files at most,
what one device call brings back: part (d)'s two results therefore go into session.json (``"chapter14"``), not
files of their own. Prints how long each part took and exits 1 if any part did not pass.

--quick is the rehearsal (tests/bench/test_gpu_session.py): the same parts on tiny sizes and budgets, on
whatever device is here, so that every part's path to its file runs in the suite. This script itself needs
only the standard library; what its parts import must be on the GPU machine or in bench/gpu_machine.toml.
"""
import argparse
import datetime
import json
import os
import platform
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BENCH = REPO / "bench"
TOTAL = 470  # seconds: the whole session, inside one device call of 8 minutes with time to spare
# the rehearsal's sizes are tiny; its budgets are only there to stop a hung part, not to time anything
QUICK_BUDGET, QUICK_TOTAL = 300, 1500
ANCHOR_LANE = "tasks-cpu-anchor"
QUICK_TESTS = "tests/reference/models/test_recurrent_classifier.py"  # the rehearsal's CUDA tests: one small file


@dataclass
class Part:
    name: str
    budget: float  # seconds on the GPU day
    files: list[str] = field(default_factory=list)  # what it writes in OUT (default: <name>.json)

    def outputs(self) -> list[str]:
        return self.files or [f"{self.name}.json"]


PARTS = [
    Part("cuda-tests", 75),
    Part("notebooks", 250),
    Part("chapter12", 50),
    Part("chapter14", 60, ["session.json"]),
    Part("tasks", 110),
    Part("benchmarks", 100, ["training.json", "structured.json"]),
]
ANCHOR_BUDGET = 300


def environment() -> dict[str, str]:
    """The course's packages and the bench scripts importable in every part (the GPU machine has no .venv)."""
    paths = [str(REPO / "reference"), str(REPO / "autograder"), str(BENCH)]
    paths += [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(dict.fromkeys(paths)), "PYTHONUNBUFFERED": "1"}


def commands(name: str, out: Path, work: Path, quick: bool, notebook_paths: list[str]) -> list[list[str]]:
    """The processes a part runs, one after the other, under its one budget."""
    py = [sys.executable]
    if name == "cuda-tests":
        paths = ["--test-paths", QUICK_TESTS] if quick else []
        return [py + [str(BENCH / "gpu_check.py"), "--no-notebooks", *paths, "--json", str(out / "cuda-tests.json")]]
    if name == "notebooks":
        chosen = ["--notebook-paths", *notebook_paths] if notebook_paths else []
        return [py + [str(BENCH / "gpu_check.py"), "--no-tests", "--no-cpu", *chosen, "--json", str(out / "notebooks.json")]]
    if name == "chapter12":
        return [py + [str(Path(__file__)), "--measure-chapter12", str(out / "chapter12.json"), *(["--quick"] if quick else [])]]
    if name == "tasks":
        sizes = ["--tasks", "positions-none", "--epochs", "1", "--scale", "cpu"] if quick else ["--scale", "gpu"]
        return [py + [str(BENCH / "tasks.py"), *sizes, "--json", str(work / "tasks-gpu.json")]]
    if name == ANCHOR_LANE:  # the CPU scale on 2 CPU threads (bench_device limits a CPU run to 2)
        sizes = ["--tasks", "positions-none", "--epochs", "1"] if quick else []
        return [py + [str(BENCH / "tasks.py"), "--device", "cpu", "--scale", "cpu", *sizes, "--json", str(work / "tasks-cpu.json")]]
    if name == "benchmarks":
        small = (["--preset", "tiny", "--iterations", "1", "--rounds", "1"], ["--repeats", "1"]) if quick else ([], [])
        return [py + [str(BENCH / "training.py"), *small[0], "--json", str(out / "training.json")],
                py + [str(BENCH / "structured.py"), *small[1], "--json", str(out / "structured.json")]]
    if name == "chapter14":  # into work/: session.json carries them (8 files come back from a call)
        small = (["--lengths", "64", "--rounds", "1"], ["--preset", "tiny", "--tokens", "4", "8"]) if quick else (
            ["--lengths", "1024", "4096", "16384", "--rounds", "2"], [])
        return [py + [str(BENCH / "scan.py"), *small[0], "--json", str(work / "scan.json")],
                py + [str(BENCH / "generation_memory.py"), *small[1], "--json", str(work / "generation-memory.json")]]
    raise ValueError(name)


class Lane(threading.Thread):
    """Runs a part's processes under one deadline, streaming their output with the part's name in front."""

    def __init__(self, name: str, argvs: list[list[str]], budget: float):
        super().__init__(daemon=True)
        self.part, self.argvs, self.budget = name, argvs, budget
        self.output: list[str] = []
        self.status, self.returncode, self.seconds = "not run", None, 0.0
        self.process: subprocess.Popen | None = None

    def run(self) -> None:
        start = time.perf_counter()
        deadline = start + self.budget
        self.status = "pass"
        for argv in self.argvs:
            left = deadline - time.perf_counter()
            if left <= 0:
                self.status = "timeout"
                break
            self.output.append(f"$ {' '.join(Path(a).name if a.startswith(str(REPO)) else a for a in argv)}\n")
            self.process = process = subprocess.Popen(argv, cwd=REPO, env=environment(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                       text=True, start_new_session=True)  # its own group: a timeout kills its children
            reader = threading.Thread(target=self.relay, args=(process,), daemon=True)
            reader.start()
            try:
                self.returncode = process.wait(timeout=left)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
                self.status = "timeout"
            reader.join(timeout=10)
            if self.status == "timeout":
                self.output.append(f"stopped: over its budget of {self.budget:.0f} s\n")
                print(f"[{self.part}] stopped: over its budget of {self.budget:.0f} s", flush=True)
                break
            if self.returncode != 0:
                self.status = "fail"
        self.seconds = time.perf_counter() - start

    def stop(self) -> None:
        """Kill what still runs (the session is over)."""
        if self.is_alive() and self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.status = "stopped: the session ended"

    def relay(self, process: subprocess.Popen) -> None:
        for line in process.stdout:
            self.output.append(line)
            print(f"[{self.part}] {line}", end="", flush=True)


def read_json(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def merged_tasks(work: Path, gpu_status: str, anchor_status: str) -> tuple[dict, str]:
    """tasks.json: each task's run at the GPU scale beside its CPU-scale anchor on 2 threads, with the ratio of
    their training throughputs (target on a GPU: at least 5x); and the printed table."""
    gpu, cpu = read_json(work / "tasks-gpu.json") or {}, read_json(work / "tasks-cpu.json") or {}
    rows, lines = {}, [f"{'task':<22} {'GPU-scale s':>11} {'tokens/s':>11} {'CPU s':>7} {'CPU tokens/s':>13} {'ratio':>7}"
                       "  test metrics (GPU scale; CPU scale)"]
    for task in dict.fromkeys([*gpu.get("tasks", {}), *cpu.get("tasks", {})]):
        big, small = gpu.get("tasks", {}).get(task, {}).get("fast"), cpu.get("tasks", {}).get(task, {}).get("fast")
        ratio = big["tokens_per_s"] / small["tokens_per_s"] if big and small else None
        rows[task] = {"gpu_scale": big, "cpu_anchor": small, "throughput_ratio": ratio}
        cells = [f"{big['seconds']:>11.1f} {big['tokens_per_s']:>11,.0f}" if big else f"{'-':>11} {'-':>11}",
                 f"{small['seconds']:>7.1f} {small['tokens_per_s']:>13,.0f}" if small else f"{'-':>7} {'-':>13}",
                 f"{ratio:>6.1f}x" if ratio else f"{'-':>7}"]
        shown = "; ".join(", ".join(f"{k.removeprefix('test_')} {v:.3f}" for k, v in run["metrics"].items()) if run else "-"
                          for run in (big, small))
        lines.append(f"{task:<22} {' '.join(cells)}  {shown}")
    merged = {"facts": {"gpu_scale": gpu.get("facts"), "cpu_anchor": cpu.get("facts")}, "status": gpu_status,
              "anchor_status": anchor_status, "target_ratio": 5.0, "tasks": rows}
    return merged, "\n".join(lines) + "\n"


def measure_chapter12(path: Path, quick: bool) -> None:
    """Chapter 12's figures: on the fastest device, both models at the CPU and at the GPU scale, their seconds per
    epoch (median) and held-out exact match; the L-sweep; then the same at the CPU scale on one CPU thread, as
    the chapter runs on a student's CPU. Written to ``path`` after every measurement."""
    import statistics

    import torch

    from seqmodels.tasks.base import SCALES
    from seqmodels.tasks.date_models import LENGTHS, layer_cost_sweep, train_date_models
    from seqmodels.training import pick_device

    device = pick_device()
    epochs, pairs, lengths = (1, 60, [8, 16]) if quick else (4, 1500, LENGTHS)
    runs = [(device, "cpu"), (device, "gpu"), (torch.device("cpu"), "cpu")] if device.type == "cuda" else [(device, "cpu")]
    name = torch.cuda.get_device_name(device) if device.type == "cuda" else f"{platform.machine()}, {os.cpu_count()} cores"
    result = {"device": f"{device.type} ({name})", "torch": torch.__version__, "date": datetime.date.today().isoformat(),
              "epochs": epochs, "pairs_at_cpu_scale": pairs, "training": [], "layer_cost": {}}
    for where, scale in runs:
        if where.type == "cpu":
            torch.set_num_threads(1)  # as the chapter's setup cell asks
        _, _, histories, _, _ = train_date_models(where, SCALES[scale], epochs=epochs, pairs=pairs, progress=False)
        for model, history in histories.items():
            row = {"device": where.type, "scale": scale, "model": model,
                   "seconds_per_epoch": statistics.median(history["seconds"]),
                   "validation_exact_match": history["validation_exact_match"][-1]}
            result["training"].append(row)
            print(f"{where.type:<5} {scale}-scale {model:<27} {row['seconds_per_epoch']:.2f} s per epoch (median of "
                  f"{epochs}), held-out exact match {row['validation_exact_match']:.3f} after {epochs}", flush=True)
        if scale == "cpu":  # once per device
            sweep = layer_cost_sweep(where, lengths)
            result["layer_cost"][where.type] = {"lengths": lengths, "seconds": sweep}
            for layer, seconds in sweep.items():
                print(f"{where.type:<5} {layer:<14}", "  ".join(f"L={n}: {1000 * s:.1f} ms" for n, s in zip(lengths, seconds)),
                      flush=True)
        path.write_text(json.dumps(result, indent=2) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, help="the folder for the results (e.g. $OUT on the GPU machine)")
    parser.add_argument("--quick", action="store_true", help="the rehearsal: tiny sizes and budgets")
    parser.add_argument("--parts", nargs="+", choices=[p.name for p in PARTS], help="only these (default: all, in order)")
    parser.add_argument("--total", type=float, help=f"seconds for the whole session (default {TOTAL}; --quick {QUICK_TOTAL})")
    parser.add_argument("--budget", nargs="+", default=[], metavar="PART=S", help="a part's own budget instead")
    parser.add_argument("--notebook-paths", nargs="+", default=[], metavar="FILE", help="part notebooks: these instead of all")
    parser.add_argument("--measure-chapter12", type=Path, metavar="JSON", help=argparse.SUPPRESS)  # part chapter12's process
    args = parser.parse_args()
    if args.measure_chapter12:
        measure_chapter12(args.measure_chapter12, args.quick)
        return 0
    if args.out is None:
        parser.error("--out DIR is required")
    overrides = dict(item.split("=", 1) for item in args.budget)
    parts = [p for p in PARTS if not args.parts or p.name in args.parts]
    total = args.total or (QUICK_TOTAL if args.quick else TOTAL)
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    log = out / "session.log"
    log.write_text(f"GPU session, {datetime.datetime.now().isoformat(timespec='seconds')}, {platform.node()}, "
                   f"python {platform.python_version()}{', quick rehearsal' if args.quick else ''}\n")
    started = time.perf_counter()
    summary = {"date": datetime.date.today().isoformat(), "quick": args.quick, "total_budget": total, "parts": {}}

    def budget_of(name: str, default: float) -> float:
        return float(overrides.get(name, default))

    def record(lane: Lane, files: list[str], extra_output: str = "") -> None:
        for name in files:  # a part that wrote nothing still leaves its file, saying why
            if not (out / name).exists():
                (out / name).write_text(json.dumps({"part": lane.part, "status": lane.status, "returncode": lane.returncode,
                                                    "output_tail": "".join(lane.output)[-4000:]}, indent=2) + "\n")
        line = f"part {lane.part}: {lane.status} in {lane.seconds:.1f} s (budget {lane.budget:.0f} s)"
        with log.open("a") as handle:
            handle.write(f"\n===== {line}\n{''.join(lane.output)}{extra_output}")
        summary["parts"][lane.part] = {"status": lane.status, "seconds": round(lane.seconds, 1),
                                       "budget": round(lane.budget, 1), "files": files}
        summary["seconds"] = round(time.perf_counter() - started, 1)
        (out / "session.json").write_text(json.dumps(summary, indent=2) + "\n")
        print(line, flush=True)

    with tempfile.TemporaryDirectory(prefix="gpu-session-") as tmp:
        work = Path(tmp)
        anchor = None
        if any(p.name == "tasks" for p in parts):  # CPU work: it runs beside the GPU parts from the start
            anchor = Lane(ANCHOR_LANE, commands(ANCHOR_LANE, out, work, args.quick, []),
                          budget_of(ANCHOR_LANE, QUICK_BUDGET if args.quick else ANCHOR_BUDGET))
            anchor.start()
        for part in parts:
            left = total - (time.perf_counter() - started)
            budget = min(budget_of(part.name, QUICK_BUDGET if args.quick else part.budget), max(left, 0))
            lane = Lane(part.name, commands(part.name, out, work, args.quick, args.notebook_paths), budget)
            if budget <= 0:
                lane.status = "skipped: no time left"
            else:
                lane.run()
            extra = ""
            if part.name == "chapter14":
                summary["chapter14"] = {"scan": read_json(work / "scan.json"),
                                        "generation_memory": read_json(work / "generation-memory.json")}
            if part.name == "tasks":
                anchor.join(timeout=max(0.0, total - (time.perf_counter() - started)))
                merged, extra = merged_tasks(work, lane.status, anchor.status if not anchor.is_alive() else "still running")
                (out / "tasks.json").write_text(json.dumps(merged, indent=2) + "\n")
                print(extra, end="", flush=True)
            record(lane, part.outputs(), extra)
        if anchor is not None:
            anchor.stop()
            summary["parts"][ANCHOR_LANE] = {"status": anchor.status, "seconds": round(anchor.seconds, 1),
                                             "budget": anchor.budget, "files": ["tasks.json"]}
            (out / "session.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(f"\n{'part':<18} {'status':<24} {'seconds':>8} {'budget':>7}")
    for name, row in summary["parts"].items():
        print(f"{name:<18} {row['status']:<24} {row['seconds']:>8.1f} {row['budget']:>7.0f}")
    seconds = time.perf_counter() - started
    passed = all(row["status"] == "pass" for row in summary["parts"].values())
    print(f"GPU session: {'PASS' if passed else 'FAIL'} in {seconds:.0f} s; results in {out}")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
