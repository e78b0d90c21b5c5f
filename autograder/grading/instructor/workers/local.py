"""The embedded grading workers: long-lived nbgrader processes on this machine, nothing to start.

nbgrader is imported once per process, not once per notebook.

Starting ``nbgrader autograde`` costs about 2.5 s of imports before it grades anything; a
class is graded by a few of these workers instead, each running nbgrader's own apps
(``autograde`` for one student, ``generate_feedback`` ...) per request: one JSON line in
(the subcommand and its command-line arguments), one JSON line out (whether it succeeded,
and its log). A worker that runs past the time limit is killed with its whole process
group and replaced.
"""
import importlib
import io
import json
import queue
import select
import subprocess
import sys
import traceback
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

from grading.instructor.course import REPO, nbgrader_environment
from grading.instructor.processes import kill_group
from grading.instructor.workers.abc import MAX_WORKERS_LOST, Workers, WorkerTimeout, checker_options

# an ERROR line, which grading.instructor.grade gives as the reason the notebook failed
STOPPED = "[GradingWorker | ERROR] the grading process stopped (killed, or out of memory)"


class Worker:
    """One grading process, started on first use and restarted after a kill."""

    def __init__(self, cwd: Path, env: dict[str, str]):
        self.cwd, self.env = cwd, env
        self.process: subprocess.Popen | None = None

    def _started(self) -> subprocess.Popen:
        if self.process is None or self.process.poll() is not None:
            self.process = subprocess.Popen([sys.executable, "-m", "grading.instructor.workers.local"], cwd=self.cwd, env=self.env,
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
        self.process = None


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


def main() -> None:
    preload()
    replies = sys.stdout
    for line in sys.stdin:
        log = io.StringIO()
        with redirect_stdout(log), redirect_stderr(log):
            command, *argv = json.loads(line)
            ok = _run(command, argv)
        replies.write(json.dumps({"ok": ok, "log": log.getvalue()[-50_000:]}) + "\n")
        replies.flush()


if __name__ == "__main__":
    main()
