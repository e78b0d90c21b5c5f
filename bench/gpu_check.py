"""GPU check: every solution notebook top to bottom on the GPU and on a student's CPU, and the CUDA reference tests.

    make gpu-check                                   # with .venv/bin/python
    python3 bench/gpu_check.py [--notebooks 01_tokens 06_bidirectional ...] [--no-cpu] [--cpu-jobs 6]
                               [--no-tests] [--json PATH] [--notebook-paths FILE.ipynb ...]

Each notebook (solutions/*/*.ipynb) runs in a fresh Jupyter kernel (nbclient, working directory = the
notebook's folder, every cell, hidden tests and slow demos included) twice:

  GPU column  the default environment: the GPU when there is one (on a machine without one this column
              runs on the CPU too, with every core, and the table says so);
  CPU column  the GPU hidden (CUDA_VISIBLE_DEVICES="") and torch on 2 threads (OMP_NUM_THREADS,
              MKL_NUM_THREADS), like a student's laptop; --no-cpu skips it.

The GPU notebooks run one after the other, then the CUDA variants of the reference tests
(pytest tests/reference tests/bench -k cuda); meanwhile up to --cpu-jobs CPU notebooks run at once,
so the check takes about as long as the slower of the two. Prints one row per notebook (seconds in
each column, pass/fail with the first failing cell's error) and pytest's summary line; --json also
writes the results. Exits 1 when a notebook or a test fails.

Needs nbclient, nbformat and ipykernel (with their dependencies) besides torch: nothing of nbgrader.
The kernel is started with this interpreter (a kernelspec written to a temporary folder), and its
PYTHONPATH holds reference/, autograder/, this process's PYTHONPATH and the folder ipykernel was
imported from, so wheels installed with ``pip install --target DIR`` work (bench/README.md).
"""
import argparse
import datetime
import json
import os
import platform
import site
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SOLUTIONS = REPO / "solutions"
# a test module that cannot be imported there (a package the GPU machine lacks) must not stop the others
TEST_PATHS = ["tests/reference", "tests/bench"]
PYTEST = [sys.executable, "-m", "pytest", "-q", "-k", "cuda", "-p", "no:cacheprovider", "--continue-on-collection-errors"]
KERNEL_NAME = "gpu-check-python"
START_TIMEOUT = 90  # seconds a kernel may take to start (about 2 s here); a hang becomes a clear failure ...
START_RETRIES = 1  # ... after one more try: 2 x 90 s stays well inside the test's 300 s limit
DEMO_RESULT = "demo at the "  # how seqmodels.tasks.demo_scale.report begins the line of a demo's metric
PROBE = ("import json, os, torch; cuda = torch.cuda.is_available(); "
         "print(json.dumps({'torch': torch.__version__, 'cuda': cuda, "
         "'name': torch.cuda.get_device_name(0) if cuda else None, 'threads': torch.get_num_threads()}))")


def pythonpath() -> str:
    """reference/ and autograder/ (the notebooks import seqmodels and grading.student.checks), then what this process has."""
    import ipykernel
    entries = [str(REPO / "reference"), str(REPO / "autograder")]
    entries += [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    home = str(Path(ipykernel.__file__).resolve().parents[1])  # e.g. /tmp/site after pip install --target DIR
    if home not in {str(Path(p).resolve()) for p in [*site.getsitepackages(), site.getusersitepackages()]}:
        entries.append(home)
    return os.pathsep.join(dict.fromkeys(entries))


def kernel_environments(cpu_threads: int) -> dict[str, dict[str, str]]:
    base = {key: value for key, value in os.environ.items() if key != "NBGRADER_EXECUTION"}  # slow demos run too
    base["PYTHONPATH"] = pythonpath()
    cpu = {**base, "CUDA_VISIBLE_DEVICES": "", "OMP_NUM_THREADS": str(cpu_threads), "MKL_NUM_THREADS": str(cpu_threads)}
    return {"gpu": base, "cpu": cpu}


def write_kernelspec(folder: Path) -> Path:
    """A kernelspec that starts ipykernel with this very interpreter, found whether or not Jupyter knows one."""
    spec = folder / KERNEL_NAME
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3 (gpu-check)", "language": "python", "metadata": {"debugger": False},
    }))
    return folder


def probe_device(env: dict[str, str]) -> dict:
    """What torch sees in ``env`` (asked in a subprocess, so that this process holds no CUDA context)."""
    done = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise SystemExit(f"gpu_check: torch does not import:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def first_line(text: str, limit: int = 300) -> str:
    line = next((part.strip() for part in str(text).splitlines() if part.strip()), "")
    return line if len(line) <= limit else line[: limit - 3] + "..."


def run_notebook(path: Path, env: dict[str, str], kernel_dirs: Path, cell_timeout: int,
                 start_timeout: int = START_TIMEOUT) -> dict:
    """Execute ``path`` in a fresh kernel; seconds from kernel start to the end, the first error if any, and the
    lines its training demos printed with their scale and metric (``seqmodels.tasks.demo_scale.report``)."""
    import nbformat
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import AsyncKernelManager
    from nbclient import NotebookClient

    start = time.perf_counter()
    for attempt in range(1 + START_RETRIES):
        nb = nbformat.read(path, as_version=4)
        current = {"index": None}
        km = AsyncKernelManager(kernel_name=KERNEL_NAME, kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(kernel_dirs)]))
        client = NotebookClient(nb, km=km, timeout=cell_timeout, startup_timeout=start_timeout, kernel_name=KERNEL_NAME,
                                resources={"metadata": {"path": str(path.parent)}},
                                on_cell_start=lambda cell, cell_index: current.update(index=cell_index))
        error = None
        # the kernel process's own output (not the cells'): kept out of the table, shown when the kernel dies
        with tempfile.TemporaryFile("w+") as log:
            try:
                client.execute(env=env, stdout=log, stderr=log)
            except Exception as exc:  # CellExecutionError, CellTimeoutError, DeadKernelError, a kernel that never started
                log.seek(0)
                error = failure(exc, nb, current["index"], log.read())
        if error is None or current["index"] is not None:
            break
        # no cell started: the kernel did not start (once, a start hung for the whole test's limit), so it is
        # started once more, and a second failure says so; the seconds include both tries
        error["evalue"] = f"no cell ran: the kernel failed to start ({start_timeout} s allowed), {attempt + 1} times: {error['evalue']}"
    seconds = time.perf_counter() - start
    return {"seconds": round(seconds, 2), "passed": error is None, "error": error, "demo_results": demo_results(nb)}


def demo_results(nb) -> list[str]:
    """The lines the executed notebook's training demos printed with their scale and metric."""
    lines = []
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            text = output.get("text", "") if output.get("output_type") == "stream" else ""
            lines += [line.strip() for line in text.splitlines() if line.startswith(DEMO_RESULT)]
    return lines


def failure(exc: Exception, nb, index: int | None, kernel_log: str) -> dict:
    """The first failing cell: its index and nbgrader grade_id, the exception's name and the first line of its message."""
    cell = nb.cells[index] if index is not None else None
    grade_id = cell.metadata.get("nbgrader", {}).get("grade_id") if cell is not None else None
    ename = getattr(exc, "ename", None) or type(exc).__name__
    evalue = getattr(exc, "evalue", None)
    if evalue is None:
        evalue = str(exc).strip().splitlines()[-1] if str(exc).strip() else ""
    error = {"cell": index, "grade_id": grade_id, "ename": ename, "evalue": first_line(evalue)}
    if getattr(exc, "ename", None) is None:  # not an error raised by a cell: the kernel's own output may say why
        lines = [line for line in kernel_log.splitlines() if line.strip() and "without encryption" not in line]
        error["kernel_log"] = "\n".join(lines[-20:])
    return error


def describe(error: dict) -> str:
    where = f"cell {error['cell']}" if error["cell"] is not None else "kernel"
    if error.get("grade_id"):
        where += f" ({error['grade_id']})"
    return f"{where}: {error['ename']}: {error['evalue']}"


def run_cuda_tests(env: dict[str, str], paths: list[str] = TEST_PATHS) -> dict:
    """pytest's CUDA variants in ``paths`` (skipped, with the reason, without a GPU); bench/ on the path for tests/bench."""
    env = {**env, "PYTHONPATH": os.pathsep.join([env["PYTHONPATH"], str(REPO / "bench")])}
    start = time.perf_counter()
    command = [*PYTEST, *paths]
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True)
    lines = [line.strip("= ").strip() for line in done.stdout.splitlines() if line.strip()]
    summary = lines[-1] if lines else first_line(done.stderr)
    failed = [line for line in done.stdout.splitlines() if line.startswith(("FAILED ", "ERROR "))]
    return {"command": " ".join(["python", *command[1:]]), "returncode": done.returncode, "summary": summary,
            "passed": done.returncode == 0, "seconds": round(time.perf_counter() - start, 2), "failed": failed,
            "output_tail": "" if done.returncode == 0 else (done.stdout + done.stderr)[-6000:]}


def pick_notebooks(names: list[str] | None, paths: list[Path] | None) -> list[Path]:
    if paths:
        return [p.resolve() for p in paths]
    every = sorted(SOLUTIONS.glob("*/*.ipynb"))
    every = [p for p in every if p.stem == p.parent.name and ".ipynb_checkpoints" not in p.parts]
    if not names:
        return every
    chosen = []
    for name in names:
        matches = [p for p in every if p.stem == name or p.stem.startswith(name)]
        if not matches:
            raise SystemExit(f"gpu_check: no solution notebook matches {name!r} (have: {', '.join(p.stem for p in every)})")
        chosen += [p for p in matches if p not in chosen]
    return chosen


def main() -> int:
    cores = os.cpu_count() or 1
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--notebooks", nargs="+", metavar="NAME", help="chapters to run (01_tokens, or a prefix: 01); default all")
    parser.add_argument("--notebook-paths", nargs="+", type=Path, metavar="FILE", help="run these notebook files instead")
    parser.add_argument("--cpu", action=argparse.BooleanOptionalAction, default=True, help="also run on the CPU (default yes)")
    parser.add_argument("--cpu-jobs", type=int, default=max(1, min(6, cores // 2)),
                        help=f"CPU kernels at once (default {max(1, min(6, cores // 2))} here)")
    parser.add_argument("--cpu-threads", type=int, default=2, help="torch threads of each CPU kernel (default 2)")
    parser.add_argument("--tests", action=argparse.BooleanOptionalAction, default=True, help="run the CUDA tests (default yes)")
    parser.add_argument("--test-paths", nargs="+", default=TEST_PATHS, metavar="PATH",
                        help=f"where the CUDA tests are (default {' '.join(TEST_PATHS)})")
    parser.add_argument("--no-notebooks", dest="run_notebooks", action="store_false", help="only the CUDA tests")
    parser.add_argument("--cell-timeout", type=int, default=1800, help="seconds one cell may take (default 1800)")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()

    notebooks = pick_notebooks(args.notebooks, args.notebook_paths) if args.run_notebooks else []
    envs = kernel_environments(args.cpu_threads)
    device = probe_device(envs["gpu"])
    gpu_label = "cuda" if device["cuda"] else "cpu"
    label = f"{device['name']} (cuda)" if device["cuda"] else f"cpu ({platform.machine()}, {cores} cores): no CUDA GPU here"
    print(f"device: {label} | torch: {device['torch']} | python: {platform.python_version()} | "
          f"CPU column: {args.cpu_threads} threads per kernel, {args.cpu_jobs} at once | date: {datetime.date.today().isoformat()}")
    if not device["cuda"]:
        print("No CUDA GPU: the first column ran on the CPU (all cores), and the CUDA tests are reported as skipped.")

    names = {"gpu": "cuda" if device["cuda"] else "cpu, all cores", "cpu": f"cpu, {args.cpu_threads} threads"}
    results = {p: {"notebook": p.stem, "path": str(p.relative_to(REPO)) if p.is_relative_to(REPO) else str(p),
                   "gpu": None, "cpu": None} for p in notebooks}
    lock = threading.Lock()
    started = time.perf_counter()

    def save(tests: dict | None, passed: bool | None) -> None:
        """The JSON so far (``passed`` None until the end): a check stopped midway keeps the notebooks it ran."""
        if args.json is not None:
            report = {"device": {**device, "label": label, "gpu_column": gpu_label}, "python": platform.python_version(),
                      "cores": cores, "cpu_threads": args.cpu_threads, "cpu_jobs": args.cpu_jobs,
                      "date": datetime.date.today().isoformat(), "notebooks": list(results.values()),
                      "cuda_tests": tests, "seconds": round(time.perf_counter() - started, 1), "passed": passed}
            args.json.parent.mkdir(parents=True, exist_ok=True)
            args.json.write_text(json.dumps(report, indent=2) + "\n")

    def run(path: Path, column: str) -> None:
        outcome = run_notebook(path, envs[column], kernel_dirs, args.cell_timeout)
        outcome["device"] = gpu_label if column == "gpu" else "cpu"
        with lock:
            results[path][column] = outcome
            state = "pass" if outcome["passed"] else "FAIL " + describe(outcome["error"])
            print(f"  [{names[column]}] {path.stem}: {outcome['seconds']:.1f} s, {state}", flush=True)
            for line in outcome["demo_results"]:
                print(f"    {line}", flush=True)
            save(None, None)

    with tempfile.TemporaryDirectory(prefix="gpu-check-") as tmp:
        kernel_dirs = write_kernelspec(Path(tmp) / "kernels")
        tests = None
        with ThreadPoolExecutor(max_workers=max(1, args.cpu_jobs)) as cpu_pool:
            cpu_futures = [cpu_pool.submit(run, p, "cpu") for p in notebooks] if args.cpu else []
            for path in notebooks:  # the GPU lane: one notebook at a time, then the CUDA tests
                run(path, "gpu")
            if args.tests:
                tests = run_cuda_tests(envs["gpu"], args.test_paths)
                print(f"  [tests] {tests['summary']} ({tests['seconds']:.1f} s)", flush=True)
            for future in cpu_futures:
                future.result()
    seconds = time.perf_counter() - started

    heads = tuple(f"s ({names[column]})" for column in ("gpu", "cpu"))
    width, w1, w2 = max([8, *(len(p.stem) for p in notebooks)]), len(heads[0]), len(heads[1])
    print(f"\n| {'notebook':<{width}} | {heads[0]} | {heads[1]} | result")
    print(f"|{'-' * (width + 2)}|{'-' * (w1 + 2)}|{'-' * (w2 + 2)}|-------")
    failures = []
    for path in notebooks:
        row = results[path]
        cells, states = [], []
        for column in ("gpu", "cpu"):
            outcome = row[column]
            cells.append(f"{outcome['seconds']:{(w1, w2)[len(cells)]}.1f}" if outcome else f"{'-':>{(w1, w2)[len(cells)]}}")
            if outcome and not outcome["passed"]:
                where, name = outcome["error"], names[column]
                states.append(f"FAIL [{name}] cell {where['cell']} ({where['grade_id'] or where['ename']})")
                failures.append(f"{row['notebook']} [{name}]: {describe(where)}")
        print(f"| {row['notebook']:<{width}} | {cells[0]} | {cells[1]} | {'; '.join(states) or 'pass'}")
    totals = [sum(results[p][c]["seconds"] for p in notebooks if results[p][c]) for c in ("gpu", "cpu")]
    cpu_total = f"{totals[1]:{w2}.1f}" if args.cpu else f"{'-':>{w2}}"
    print(f"| {'total':<{width}} | {totals[0]:{w1}.1f} | {cpu_total} |")
    for line in failures:
        print(f"  {line}")
    for row in results.values():
        for outcome in (row["gpu"], row["cpu"]):
            if outcome and outcome["error"] and outcome["error"].get("kernel_log"):
                print(f"  the kernel's own output ({row['notebook']}, {outcome['device']}):\n{outcome['error']['kernel_log']}")
    if tests is not None:
        print(f"\nCUDA tests ({tests['command']}): {tests['summary']} -> {'pass' if tests['passed'] else 'FAIL'} "
              f"(exit {tests['returncode']})")
        if not tests["passed"]:  # pytest's short summary (the JSON keeps the end of its output)
            print("\n".join(f"  {line}" for line in tests["failed"]) or tests["output_tail"])
    passed = all(r[c]["passed"] for r in results.values() for c in ("gpu", "cpu") if r[c]) and (tests is None or tests["passed"])
    print(f"\ngpu-check: {'PASS' if passed else 'FAIL'} in {seconds:.0f} s")
    save(tests, passed)
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
