"""PyTorch imported once per grading worker, not once per student: answer workers forked from a zygote.

Starting an answer worker in the sandbox costs about 1.5 s, nearly all of it ``import torch``; a
class pays it once per notebook and again after every time-out or crash. So each long-lived
grading process (grading.instructor.workers.local) keeps one sandboxed *zygote*
(``answer_worker.py --zygote``) that imports PyTorch and waits, and every student's worker is a
fork of it, holding nothing but what a fresh worker would hold.

Why one student cannot reach another through it:

- the zygote never runs an answer, and each worker is a new fork of it, so no Python object,
  module or tensor written by one student is in the next one's process;
- before it forks the next worker, the zygote kills every other process in its sandbox (its own
  PID namespace), so nothing one student started is still running, and empties /tmp, the one
  folder of its sandbox that can be written, so no file is left behind;
- it is not dumpable: no student's process may read or write its memory or open its file
  descriptors;
- a student's code can still signal it (same user): then it stops answering, and the grading
  worker replaces it (``prepare``, before each notebook), so it costs time, never a score.

Where the zygote cannot be used (no fork, or it failed to answer), the answer worker is started on
its own as before (grading.instructor.verdicts.answers).
"""
import json
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

from grading.instructor.processes import dies_with_parent
from grading.instructor.verdicts.sandbox import bubblewrap, sandboxed
from grading.student.rules import FORBIDDEN

_HERE = Path(__file__).resolve().parent
WORKER_FILES = (_HERE / "answer_worker.py", _HERE / "wire.py", _HERE.parents[1] / "student" / "watch.py",
                _HERE.parents[1] / "student" / "raised.py")
WORKER_ENV = {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
# bwrap's own environment, which the sandbox shows as /proc/1/environ: nothing of the host's (not its PATH)
SANDBOX_ENV = {"PATH": "/usr/bin:/bin"}
START_TIMEOUT = 120  # seconds for the zygote to import PyTorch and answer
REPLY_TIMEOUT = 10  # seconds for any later reply; a zygote that takes longer has been stopped


def forbidden_modules() -> list[str]:
    """The modules that hold the calls an exercise forbids: every worker's first load resolves those calls
    (grading.student.watch), which imports the modules (SacreBLEU, tokenizers ...), 0.1 s per test cell unless
    the zygote has imported them already."""
    return sorted({dotted.rpartition(".")[0] for calls in FORBIDDEN.values() for dotted in calls
                   if not dotted.startswith("torch.Tensor.")})


def worker_folder(prefix: str) -> Path:
    """A new temporary folder holding the answer worker's program (``WORKER_FILES``), for the sandbox to show."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    for path in WORKER_FILES:
        shutil.copy(path, folder / path.name)
    return folder


class ForkedWorker:
    """An answer worker forked by the zygote, with the pipes of a subprocess.Popen (``stdin``, ``stdout``)."""

    def __init__(self, zygote: "Zygote", stdin, stdout):
        self.zygote, self.stdin, self.stdout = zygote, stdin, stdout
        self.ended = False
        self.signal: int | None = None  # the signal that ended it before it was asked to end (SIGXCPU, say)

    def poll(self) -> int | None:
        """None while it runs; between requests nothing is to be read, so a readable pipe means it has stopped."""
        if not self.ended and select.select([self.stdout], [], [], 0)[0]:
            self.end()
        return 0 if self.ended else None

    def end(self) -> None:
        if not self.ended:
            self.ended = True
            self.stdin.close()
            self.stdout.close()
            self.signal = self.zygote.end_worker()


class Zygote:
    """The zygote of one grading worker; its forks of the checker use it in turn."""

    def __init__(self):
        self.process: subprocess.Popen | None = None
        self.control: socket.socket | None = None
        self.folder: Path | None = None
        self.owner = os.getpid()
        self.contained = False  # started in the OS sandbox: its forks are too

    def _current(self) -> bool:
        """Whether the zygote is there and started as grading asks now: one started in the sandbox must not fork the
        workers of a process that has turned the sandbox off since (GRADING_SANDBOX), nor the other way round, or an
        answer would run otherwise than ``Answers.sandboxed`` says."""
        if self.control is not None and self.contained != (bubblewrap() is not None):
            self.close()
        return self.control is not None

    def prepare(self) -> None:
        """Before a notebook is graded: end the last student's worker, and start a zygote if none answers."""
        if self._current() and self._request({"op": "end"}, REPLY_TIMEOUT):
            return
        self.close()
        self._start()
        if not self._request({"op": "end"}, START_TIMEOUT):
            self.close()
        else:  # it has read its program: the folder can go now, and then no killed grading worker leaves it behind
            shutil.rmtree(self.folder, ignore_errors=True)

    def fork_worker(self, env: dict[str, str]) -> ForkedWorker | None:
        """A fresh answer worker with ``env`` added, or None when there is no zygote that answers."""
        if not self._current():
            return None
        worker_stdin, to_worker = os.pipe()
        from_worker, worker_stdout = os.pipe()
        try:
            reply = self._request({"op": "fork", "env": env}, REPLY_TIMEOUT, [worker_stdin, worker_stdout])
        finally:
            os.close(worker_stdin)
            os.close(worker_stdout)
        if reply is None:
            os.close(to_worker)
            os.close(from_worker)
            self.close()
            return None
        return ForkedWorker(self, os.fdopen(to_worker, "wb", buffering=0), os.fdopen(from_worker, "rb", buffering=0))

    def end_worker(self) -> int | None:
        """End the last worker: the signal that had ended it on its own, if any."""
        reply = self._request({"op": "end"}, REPLY_TIMEOUT) if self.control is not None else None
        if reply is None:
            self.close()
            return None
        return reply.get("signal")

    def close(self) -> None:
        """Kill the zygote's sandbox with everything in it."""
        if self.process is not None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            if os.getpid() == self.owner:
                self.process.wait()
        if self.control is not None:
            self.control.close()
        if self.folder is not None and os.getpid() == self.owner:
            shutil.rmtree(self.folder, ignore_errors=True)
        self.process = self.control = self.folder = None

    def _start(self) -> None:
        self.owner = os.getpid()
        self.folder = worker_folder("answer-zygote-")
        self.control, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.contained = bubblewrap() is not None
        env = {**WORKER_ENV, "GRADING_CONTAINED": "1" if self.contained else "0"}
        argv = sandboxed([sys.executable, "-I", str(self.folder / "answer_worker.py"), "--zygote", str(theirs.fileno()),
                          ",".join(forbidden_modules())],
                         [self.folder], env, only_tmp_writable=True)
        self.process = subprocess.Popen(argv, pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                                        env={**SANDBOX_ENV, **env}, preexec_fn=dies_with_parent())
        theirs.close()

    def _request(self, request: dict, timeout: float, fds: list[int] = ()) -> dict | None:
        """Send ``request`` and return the zygote's reply, or None when it does not reply in time."""
        try:
            socket.send_fds(self.control, [json.dumps(request).encode()], list(fds))
            ready, _, _ = select.select([self.control], [], [], timeout)
            packet = self.control.recv(65536) if ready else b""
        except OSError:
            return None
        return json.loads(packet) if packet else None


SHARED = Zygote()  # the grading worker's: prepared before each notebook, inherited by the checker it forks
