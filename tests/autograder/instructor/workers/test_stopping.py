"""Stopping the grading command stops everything it started: killed mid-class (SIGKILL, SIGTERM), it leaves no
process behind (grading workers, checkers, answer zygotes and workers, sandboxes) and no folder holding a
student's notebook.

The command runs under a small harness that is a child subreaper (PR_SET_CHILD_SUBREAPER), so that every process
the command started, in whatever session, stays the harness's descendant when its parent dies: the harness can
find each one, and kills what survives once it has reported it.
"""
import json
import os
import subprocess
import sys
import tempfile

import pytest
from grading.instructor.course import REPO
from grading.instructor.processes import SCRATCH, in_scratch, scratch_folder

from tests.autograder.instructor.test_grade import CHAPTER, cell_index, notebook_of

HARNESS = r'''
import ctypes, json, os, signal, subprocess, sys, time
from pathlib import Path

ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
argv, stop, tmp, bound = json.loads(sys.argv[1]), getattr(signal, sys.argv[2]), Path(sys.argv[3]), float(sys.argv[4])
with open(tmp / "command.log", "w") as log:
    command = subprocess.Popen(argv, stdout=log, stderr=log, env={**os.environ, "TMPDIR": str(tmp / "tmp")})


def descendants():
    """pid: (state, command line) of every living process below this one (zombies reaped on the way)."""
    while True:
        try:
            if os.waitpid(-1, os.WNOHANG)[0] == 0:
                break
        except ChildProcessError:
            break
    parents, found = {}, {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            state, ppid = stat.read_text().rpartition(")")[2].split()[:2]
            line = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, ValueError):
            continue
        parents[int(stat.parent.name)] = (int(ppid), state, line)
    below = {os.getpid()}
    while True:
        more = {pid for pid, (ppid, _, _) in parents.items() if ppid in below} - below
        if not more:
            break
        below |= more
    below.discard(os.getpid())
    return {pid: parents[pid][1:] for pid in below if parents[pid][1] != "Z"}


def left_behind():
    return sorted(str(p) for p in (tmp / "tmp").rglob("*") if p.name.startswith("verdicts-")
                  or p.name == "submission.ipynb")


start = time.monotonic()  # mid-class: a student's notebook is being checked, its answers running in their worker
while not (left_behind() and sum("answer_worker.py" in line for _, line in descendants().values()) >= 2):
    if command.poll() is not None or time.monotonic() > start + 600:
        print(json.dumps({"error": "the class was not being graded", "log": (tmp / "command.log").read_text()[-3000:]}))
        sys.exit(0)
    time.sleep(0.5)
during = left_behind()
os.kill(command.pid, stop)
command.wait()
start = time.monotonic()
while descendants() and time.monotonic() < start + bound:
    time.sleep(0.5)
survivors, seconds = descendants(), time.monotonic() - start
print(json.dumps({"during": during, "survivors": sorted(line for _, line in survivors.values()),
                  "left": left_behind(), "seconds": seconds}))
for pid in survivors:
    os.kill(pid, signal.SIGKILL)
'''


@pytest.mark.parametrize("stop", ["SIGKILL", "SIGTERM"])
def test_a_stopped_grading_command_leaves_no_process_and_no_notebook_behind(tmp_path, stop):
    inbox = tmp_path / "inbox"
    for student in ("ann", "ben"):  # two grading workers, each stuck in a student's onehot (a sleep)
        hung = notebook_of("correct", tmp_path)
        hung["cells"][cell_index(hung, "onehot")]["source"] = "import time\n\n\ndef onehot(ids, V):\n    time.sleep(10**6)\n"
        (inbox / student / CHAPTER).mkdir(parents=True)
        (inbox / student / CHAPTER / f"{CHAPTER}.ipynb").write_text(json.dumps(hung))
    (tmp_path / "tmp").mkdir()
    command = [sys.executable, "-m", "grading.instructor.grade", CHAPTER, str(inbox), "--workdir", str(tmp_path / "work"),
               "--jobs", "2", "--cell-time-limit", "300", "--time-limit", "3000"]
    # the bound on the processes' end is generous, so that no test depends on an idle machine
    done = subprocess.run([sys.executable, "-c", HARNESS, json.dumps(command), stop, str(tmp_path), "120"],
                          check=False, cwd=REPO, capture_output=True, text=True, timeout=900)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert "error" not in report, report
    assert report["during"], "the check never wrote the student's notebook: the test did not stop the command mid-class"
    assert report["survivors"] == [], f"still running 120 s after the command got {stop}: {report['survivors']}"
    assert report["left"] == [], f"left behind with a student's notebook: {report['left']}"
    print(f"every process the command started ended {report['seconds']:.1f} s after {stop}")


def test_the_next_command_removes_the_scratch_folders_of_commands_killed_with_their_workers(tmp_path, monkeypatch):
    # the worker's own clean-up never ran (both killed at once): the next grading command on the machine removes it
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    orphaned, running = tmp_path / f"grading-scratch-{ended.pid}-a1", tmp_path / f"grading-scratch-{os.getppid()}-b2"
    for folder in (orphaned, running):
        (folder / "verdicts-c3").mkdir(parents=True)
        (folder / "verdicts-c3" / "submission.ipynb").write_text("{}")
    mine = scratch_folder()
    assert mine.parent == tmp_path and mine.name.startswith(f"grading-scratch-{os.getpid()}-")
    assert not orphaned.exists()
    assert (running / "verdicts-c3" / "submission.ipynb").is_file()  # a grading command still running keeps its own


def test_a_verdicts_folder_of_a_killed_process_goes_when_the_next_notebook_is_checked(tmp_path, monkeypatch):
    # a queue's worker has no scratch folder: its pool processes check in the system's temporary folder, and one
    # killed mid-notebook (out of memory, say) leaves the student's notebook there until its sibling checks the next
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.delenv(SCRATCH, raising=False)
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    killed = tmp_path / f"verdicts-{ended.pid}-d4"
    killed.mkdir()
    (killed / "submission.ipynb").write_text("{}")
    with in_scratch("verdicts-") as folder:
        assert folder.parent == tmp_path and not killed.exists()
    assert not folder.exists()
