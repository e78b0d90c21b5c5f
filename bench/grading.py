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
import sys
import tempfile
import time
from pathlib import Path

# This file is called grading.py: keep its own folder off sys.path so `grading` is the course's package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import grading.instructor.grade as harness  # noqa: E402
from grading.instructor.course import chapters, intake_directory, nbgrader, workdir_options  # noqa: E402
from grading.instructor.example_class import EXAMPLES, build_submission, load_students  # noqa: E402


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
    finally:
        if args.keep:
            print(f"work dirs kept in {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)

    machine["load_after"] = _load()
    print(f"\n{table(rows)}")
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
    if not status:
        print("scores: plain nbgrader and the harness agree for every student")
    return status


if __name__ == "__main__":
    sys.exit(main())
