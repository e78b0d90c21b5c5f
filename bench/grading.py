"""Benchmark: the grading harness (grading.instructor.grade) against plain sequential nbgrader on the same class.

    .venv/bin/python bench/grading.py [--students 20] [--jobs 2] [--chapters 01_tokens ...] [--json PATH]

For every chapter with an example class, N students (s01, s02, ...) are built by cycling through
the example students. Each side then grades that class from scratch in its own fresh work dir:
plain nbgrader runs generate_assignment, copies the class into nbgrader's submitted directory, one `nbgrader autograde`
with nbgrader's own pipeline (its kernel runs each notebook, all students one after another),
generate_feedback and export; the harness runs grade() with --jobs parallel notebooks, each graded
by the trusted checker and its sandboxed answer worker. Prints notebooks/minute for each, their ratio and seconds per notebook,
and checks that both gradebooks give every student the same score (exit 1 if not).
Target (issue): on 2 cores, harness >= 1.7x plain nbgrader and under 5 s per notebook.

With --queue the same class is also graded through the task queue (grading.instructor.workers.queue), with 1 and
then 2 grading workers started on this machine (one notebook at a time each) and a Redis server on loopback:
notebooks per minute against the harness of the same run, the median seconds a worker spends on a notebook
(checked) and the command on recording it (recorded), and the same score check. bench/README.md turns these
into the number of machines a deadline needs.
"""
import argparse
import csv
import datetime
import importlib.metadata
import inspect
import itertools
import json
import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# This file is called grading.py: keep its own folder off sys.path so `grading` is the course's package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import grading.instructor.grade as harness  # noqa: E402
from grading.instructor.course import chapters, intake_directory, nbgrader, workdir_options  # noqa: E402
from grading.instructor.example_class import EXAMPLES, build_submission, load_students  # noqa: E402
from grading.instructor.processes import kill_group  # noqa: E402

QUEUE_WORKERS = (1, 2)  # grading workers in the queue runs


def build_class(chapter: str, students: int, root: Path) -> Path:
    """<root>/class/<sNN>/<chapter>/<chapter>.ipynb for N students, cycling through the example students."""
    examples, folder = root / "examples", root / "class"
    built = [build_submission(student, chapter, examples) for student in load_students(chapter)]
    width = max(2, len(str(students)))
    for number, source in zip(range(1, students + 1), itertools.cycle(built)):
        shutil.copytree(source, folder / f"s{number:0{width}d}" / chapter)
    return folder


# nbgrader's own autograde pipeline (its Execute runs each notebook in a kernel), in place of the course's
# trusted checker: the baseline is nbgrader as it comes
STOCK_AUTOGRADE = ("Execute", "IgnorePattern", "ClearMetadataPreprocessor", "LimitOutput", "SaveAutoGrades",
                   "AssignLatePenalties", "CheckCellMetadata")


def plain(chapter: str, folder: Path, workdir: Path) -> None:
    """What grade() does, with stock nbgrader alone: one autograde command grades every student in turn."""
    options = workdir_options(workdir)
    stock = [f"--Autograde.autograde_preprocessors="
             f"{'nbconvert' if name == 'ClearMetadataPreprocessor' else 'nbgrader'}.preprocessors.{name}"
             for name in STOCK_AUTOGRADE]
    nbgrader("generate_assignment", chapter, "--force", f"--CourseDirectory.release_directory={workdir / 'release'}",
             *options)
    shutil.copytree(folder, intake_directory(workdir))
    nbgrader("autograde", chapter, "--force", *stock, *options)
    nbgrader("generate_feedback", chapter, "--force", *options)
    nbgrader("export", "--exporter=nbgrader.plugins.CsvExportPlugin", f"--to={workdir / 'grades.csv'}", *options)


def timed_autograde(durations: list[float]):
    """Wrap the harness's per-student nbgrader call to record how long each one takes (None if it has none)."""
    original = getattr(harness, "_autograde", None)
    if original is None:
        return None

    def autograde(*args, **kwargs):
        start = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            durations.append(time.perf_counter() - start)
    return original, autograde


def scores(grades_csv: Path) -> dict[str, float]:
    with grades_csv.open() as handle:
        return {row["student_id"]: float(row["score"]) for row in csv.DictReader(handle)}


def bench_chapter(chapter: str, students: int, jobs: int, root: Path) -> dict:
    folder = build_class(chapter, students, root)
    start = time.perf_counter()
    plain(chapter, folder, root / "plain")
    plain_s = time.perf_counter() - start

    durations: list[float] = []
    wrapped = timed_autograde(durations)
    if wrapped:
        harness._autograde = wrapped[1]
    try:
        start = time.perf_counter()
        outcomes = harness.grade(chapter, folder, root / "harness", jobs=jobs, force=True, progress=False)
        harness_s = time.perf_counter() - start
    finally:
        if wrapped:
            harness._autograde = wrapped[0]

    plain_scores = scores(root / "plain" / "grades.csv")
    harness_scores = scores(root / "harness" / chapter / "grades.csv")
    mismatches = {s: (plain_scores.get(s), harness_scores.get(s)) for s in sorted(plain_scores.keys() | harness_scores)
                  if plain_scores.get(s) != harness_scores.get(s)}
    return {"chapter": chapter, "notebooks": students, "plain_s": plain_s, "harness_s": harness_s,
            "plain_per_min": 60 * students / plain_s, "harness_per_min": 60 * students / harness_s,
            "ratio": plain_s / harness_s, "harness_s_per_notebook": harness_s / students,
            "harness_median_autograde_s": statistics.median(durations) if durations else None,
            "failed": [o.submission.student for o in outcomes if o.status == "failed"],
            "score_mismatches": mismatches}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _started(command: list[str]) -> subprocess.Popen:
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


def bench_queue(chapter: str, folder: Path, root: Path, harness_scores: dict[str, float]) -> list[dict]:
    """The class graded through the queue with 1 and 2 workers on this machine (started before the clock runs,
    as a course's are), the grading command recording with one nbgrader process."""
    from grading.instructor.workers.queue import QueueWorkers, configure

    port = _free_port()
    redis = _started(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
    broker, rows = f"redis://127.0.0.1:{port}/0", []
    try:
        for count in QUEUE_WORKERS:
            workers = [_started([sys.executable, "-m", "grading.instructor.workers.queue", f"--broker={broker}",
                                 "--concurrency=1", f"--name=bench{number}@%h"]) for number in range(count)]
            try:
                while len(configure(broker).control.ping(timeout=1)) < count:
                    if any(worker.poll() is not None for worker in workers):
                        raise RuntimeError("a grading worker exited while starting")
                workdir = root / f"queue-{count}"
                start = time.perf_counter()
                with QueueWorkers(broker, jobs=1) as queued:
                    outcomes = harness.grade(chapter, folder, workdir, force=True, progress=False, workers=queued)
                seconds = time.perf_counter() - start
            finally:
                for worker in workers:
                    kill_group(worker)
            queue_scores = scores(workdir / chapter / "grades.csv")
            recorded = list(queued.recorded.values())
            rows.append({"workers": count, "queue_s": seconds, "queue_per_min": 60 * len(outcomes) / seconds,
                         "median_checked_s": statistics.median(r.checked_s for r in recorded),
                         "median_recorded_s": statistics.median(r.recorded_s for r in recorded),
                         "failed": [o.submission.student for o in outcomes if o.status == "failed"],
                         "score_mismatches": {s: (harness_scores.get(s), queue_scores.get(s))
                                              for s in sorted(harness_scores.keys() | queue_scores)
                                              if harness_scores.get(s) != queue_scores.get(s)}})
    finally:
        kill_group(redis)
    return rows


def queue_table(rows: list[dict]) -> str:
    head = (f"{'chapter':<12} {'workers':>7} {'queue s':>8} {'queue nb/min':>12} {'harness nb/min':>14} {'ratio':>6} "
            f"{'checked s':>9} {'recorded s':>10}")
    lines = [head, "-" * len(head)]
    for r in rows:
        for q in r["queue"]:
            lines.append(f"{r['chapter']:<12} {q['workers']:>7} {q['queue_s']:>8.1f} {q['queue_per_min']:>12.1f} "
                         f"{r['harness_per_min']:>14.1f} {q['queue_per_min'] / r['harness_per_min']:>5.2f}x "
                         f"{q['median_checked_s']:>9.2f} {q['median_recorded_s']:>10.2f}")
    lines.append("ratio = queue notebooks/min / harness notebooks/min (same run); checked s = median seconds a worker "
                 "spent on a notebook;\nrecorded s = median seconds the grading command spent recording one "
                 "(nbgrader autograde with the worker's verdicts)")
    return "\n".join(lines)


def _load() -> list[float] | None:
    return [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None


def table(rows: list[dict]) -> str:
    head = (f"{'chapter':<12} {'notebooks':>9} {'plain s':>8} {'plain nb/min':>12} {'harness s':>9} "
            f"{'harness nb/min':>14} {'ratio':>6} {'s/nb (wall)':>11} {'median autograde s':>18}")
    lines = [head, "-" * len(head)]
    for r in rows:
        median = f"{r['harness_median_autograde_s']:.2f}" if r["harness_median_autograde_s"] is not None else "n/a"
        lines.append(f"{r['chapter']:<12} {r['notebooks']:>9} {r['plain_s']:>8.1f} {r['plain_per_min']:>12.1f} "
                     f"{r['harness_s']:>9.1f} {r['harness_per_min']:>14.1f} {r['ratio']:>5.2f}x "
                     f"{r['harness_s_per_notebook']:>11.2f} {median:>18}")
    lines.append("ratio = harness notebooks/min / plain notebooks/min; s/nb (wall) = harness wall time / notebooks;\n"
                 "median autograde s = median duration of the harness's per-notebook autograde requests "
                 "(each one notebook, run --jobs at a time)")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=20, help="students per chapter (default 20)")
    default_jobs = min(os.cpu_count() or 1, inspect.signature(harness.grade).parameters["jobs"].default)
    parser.add_argument("--jobs", type=int, default=default_jobs, help=f"harness parallelism (default {default_jobs})")
    parser.add_argument("--chapters", nargs="+", help="chapters (default: every chapter with an example class)")
    parser.add_argument("--json", type=Path, help="also write the results to this JSON file")
    parser.add_argument("--keep", action="store_true", help="keep the temporary work dirs (their path is printed)")
    parser.add_argument("--queue", action="store_true", help="also grade through the task queue with 1 and 2 "
                                                             "workers (needs redis-server)")
    args = parser.parse_args()

    machine = {"host": socket.gethostname() or "local", "cpus": os.cpu_count(),
               "cpus_usable": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
               "python": platform.python_version(), "nbgrader": importlib.metadata.version("nbgrader"),
               "platform": platform.platform(), "date": datetime.datetime.now().isoformat(timespec="seconds"),
               "students": args.students, "jobs": args.jobs, "load_before": _load()}
    print(" | ".join(f"{k}: {v}" for k, v in machine.items()), flush=True)
    if machine["load_before"] and machine["load_before"][0] > 0.5:
        print("note: the machine is busy (load average above): timings will be slower than on an idle one")

    root = Path(tempfile.mkdtemp(prefix="bench-grading-"))
    rows = []
    try:
        for chapter in args.chapters or [c for c in chapters() if (EXAMPLES / c).is_dir()]:
            print(f"grading {chapter}: {args.students} students, plain nbgrader then the harness ...", flush=True)
            rows.append(bench_chapter(chapter, args.students, args.jobs, root / chapter))
            if args.queue:
                print(f"grading {chapter} through the queue with {' then '.join(map(str, QUEUE_WORKERS))} "
                      "workers ...", flush=True)
                rows[-1]["queue"] = bench_queue(chapter, root / chapter / "class", root / chapter,
                                                scores(root / chapter / "harness" / chapter / "grades.csv"))
    finally:
        if args.keep:
            print(f"work dirs kept in {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)

    machine["load_after"] = _load()
    print(f"\n{table(rows)}")
    if args.queue:
        print(f"\n{queue_table(rows)}")
    print(f"load average (1, 5, 15 min): {machine['load_before']} before, {machine['load_after']} after")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"machine": machine, "results": rows}, indent=2) + "\n")
        print(f"\nresults: {args.json}")
    status = 0
    for r in rows:
        if r["failed"]:
            print(f"note: {r['chapter']}: the harness could not grade {', '.join(r['failed'])}")
        if r["score_mismatches"]:
            status = 1
            print(f"WARNING: {r['chapter']}: scores differ (student: plain, harness): {r['score_mismatches']}",
                  file=sys.stderr)
        for q in r.get("queue", []):
            if q["score_mismatches"] or q["failed"]:
                status = 1
                print(f"WARNING: {r['chapter']}, {q['workers']} queue workers: failed {q['failed']}, scores differ "
                      f"(student: harness, queue): {q['score_mismatches']}", file=sys.stderr)
    if not status:
        print("scores: plain nbgrader and the harness agree for every student")
    return status


if __name__ == "__main__":
    sys.exit(main())
