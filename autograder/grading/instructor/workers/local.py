"""The embedded grading workers: long-lived nbgrader processes on this machine, nothing to start.

nbgrader is imported once per process, not once per notebook.

Starting ``nbgrader autograde`` costs about 2.5 s of imports before it grades anything; a
class is graded by a few of these workers instead, each running nbgrader's own apps
(``autograde`` for one student, ``generate_feedback`` ...) per request: one JSON line in
(the subcommand and its command-line arguments), one JSON line out (whether it succeeded,
and its log). A worker that runs past the time limit is killed with its whole process
group and replaced. A worker ends, with the checker it forked and the student's notebook in its
scratch folder, as soon as the grading command does, even a killed one (:func:`_end_with_the_command`).
"""
import importlib
import io
import json
import os
import queue
import select
import shutil
import signal
import subprocess
import sys
import threading
import traceback
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

from grading.instructor.course import REPO, nbgrader_environment
from grading.instructor.processes import SCRATCH, kill_group, scratch_folder
from grading.instructor.workers.abc import MAX_WORKERS_LOST, Workers, WorkerTimeout, checker_options

# an ERROR line, which grading.instructor.grade gives as the reason the notebook failed
STOPPED = "[GradingWorker | ERROR] the grading process stopped (killed, or out of memory)"


class Worker:
    """One grading process, started on first use and restarted after a kill."""

    def __init__(self, cwd: Path, env: dict[str, str]):
        self.cwd, self.env = cwd, env
        self.process: subprocess.Popen | None = None
        self.scratch: Path | None = None  # its files about the student it grades (processes.scratch_folder)

    def _started(self) -> subprocess.Popen:
        if self.process is None or self.process.poll() is not None:
            self.close()
            self.scratch = scratch_folder()
            self.process = subprocess.Popen([sys.executable, "-m", "grading.instructor.workers.local"], cwd=self.cwd,
                                            env={**self.env, SCRATCH: str(self.scratch)},
                                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.DEVNULL, text=True, start_new_session=True)
        return self.process

    def run(self, command: str, argv: list[str], timeout: float | None = None) -> tuple[bool, str]:
        """Run ``nbgrader COMMAND ARGV`` in this worker: (succeeded, log)."""
        process = self._started()
        process.stdin.write(json.dumps([command, *argv]) + "\n")
        process.stdin.flush()
        ready, _, _ = select.select([process.stdout], [], [], timeout)
        line = process.stdout.readline() if ready else ""
        if not ready:
            self.close()
            raise WorkerTimeout(f"ran longer than {timeout:g} s")
        if not line:  # the worker itself died (killed from outside, or out of memory)
            self.close()
            return False, STOPPED
        reply = json.loads(line)
        return reply["ok"], reply["log"]

    def close(self) -> None:
        kill_group(self.process)
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)
        self.process = self.scratch = None


class GradingWorkers(Workers):
    """A few long-lived nbgrader processes, shared by the threads that grade (and by the chapters graded at
    once, grading.instructor.example_class)."""

    def __init__(self, jobs: int):
        # several notebooks are graded at once: one thread each, instead of every process fighting for every core
        env = nbgrader_environment({"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "MPLBACKEND": "Agg"})
        self.free: queue.Queue = queue.Queue()
        self.all = [Worker(REPO, env) for _ in range(max(1, jobs))]
        for worker in self.all:
            self.free.put(worker)

    @property
    def in_flight(self) -> int:
        return len(self.all)

    def run(self, command: str, *argv: str, timeout: float | None = None) -> tuple[bool, str]:
        worker = self.free.get()
        try:
            return worker.run(command, list(argv), timeout)
        finally:
            self.free.put(worker)

    def autograde(self, chapter: str, student: str, notebook: Path, checker: dict[str, int], options: list[str],
                  timeout: float) -> tuple[bool, str]:
        for _ in range(MAX_WORKERS_LOST):  # a killed worker is replaced at its next request
            ok, log = self.run("autograde", chapter, f"--student={student}", "--force", *checker_options(checker),
                               *options, timeout=timeout)
            if ok or log != STOPPED:
                return ok, log
        return False, (f"[GradingWorker | ERROR] the notebook stopped the grading process {MAX_WORKERS_LOST} times "
                       "(killed, or out of memory); it was not graded again")

    def close(self) -> None:
        for worker in self.all:
            worker.close()


def _run(command: str, argv: list[str]) -> bool:
    from nbgrader import apps

    app_class = {"autograde": apps.AutogradeApp, "generate_feedback": apps.GenerateFeedbackApp,
                 "generate_assignment": apps.GenerateAssignmentApp, "export": apps.ExportApp}[command]
    app = app_class()
    try:
        app.initialize(argv)
        app.start()
    except SystemExit as stop:
        return stop.code in (0, None)
    except Exception:  # noqa: BLE001 - reported to the harness, which names the failure
        traceback.print_exc()
        return False
    finally:
        app.log.handlers.clear()  # each app adds its own handler to a shared logger
        app_class.clear_instance()
    return True


def preload() -> None:
    """Import what every notebook's checker needs, once per grading process (here and in the queue's workers)."""
    # the trusted checker runs in a fork of this process (grading.instructor.verdicts.preprocessor): import
    # PyTorch and the checker's modules once here, not once per notebook
    import grading.instructor.verdicts.answers  # noqa: F401
    import grading.instructor.verdicts.checker  # noqa: F401
    # and what the instructor's notebooks import on first use: their setup cells' Matplotlib, and the SymPy
    # that torch._check loads (torch.unravel_index calls it), 0.3 s and 0.5 s of each checker otherwise;
    # where one cannot be imported, the checker meets the same error in the setup cell and reports it
    for module in ("matplotlib.pyplot", "torch.fx.experimental.symbolic_shapes"):  # MPLBACKEND=Agg here
        try:
            importlib.import_module(module)
        except Exception:  # noqa: BLE001, S112 - the instructor's setup cell names the failure, not this worker
            continue


def _end_with_the_command() -> None:
    """Wait until the grading command has ended (killed too), then end this worker with what it started.

    The command holds the other end of this process's stdin, so the pipe hangs up when it ends, for whatever
    reason; the main thread may be busy grading meanwhile. Then the scratch folder goes (the student's notebook),
    and this process group with it (this worker and the checker it forked; their answer zygotes die with them,
    processes.dies_with_parent)."""
    hung_up = select.POLLHUP | select.POLLERR | select.POLLNVAL  # always reported: reading stays the main thread's
    watch = select.poll()
    watch.register(sys.stdin.fileno(), 0)
    while not any(event & hung_up for _, event in watch.poll()):
        continue
    shutil.rmtree(os.environ[SCRATCH], ignore_errors=True)
    os.killpg(0, signal.SIGKILL)


def main() -> None:
    if SCRATCH in os.environ:  # started by the grading command (Worker)
        threading.Thread(target=_end_with_the_command, daemon=True).start()
    preload()
    replies = sys.stdout
    for line in sys.stdin:
        log = io.StringIO()
        with redirect_stdout(log), redirect_stderr(log):
            command, *argv = json.loads(line)
            ok = _run(command, argv)
        replies.write(json.dumps({"ok": ok, "log": log.getvalue()[-50_000:]}) + "\n")
        replies.flush()
    if SCRATCH in os.environ:  # the command has ended (its end of stdin closed) while this worker waited
        shutil.rmtree(os.environ[SCRATCH], ignore_errors=True)


if __name__ == "__main__":
    main()
