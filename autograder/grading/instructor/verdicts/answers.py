"""A student's answers, loaded in a sandboxed worker, as functions the trusted checker can call.

:class:`Answers` starts ``answer_worker.py`` in the sandbox (grading.instructor.verdicts.sandbox) with
only the files it needs, loads the answer cells there, and restarts it after a time-out
or a crash. :class:`RemoteFunction` stands in the checker's namespace for each graded
function: calling it sends the arguments as plain data and returns plain data (with
gradients through it, grading.instructor.verdicts.wire).
"""
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import torch

from grading.student import raised
from grading.student.checks import AnswerError, ExerciseFailure, forbidden_failure  # noqa: F401 - AnswerError: the
# checker's name for an error the student's code raised (the worker reports its class name and message only)
from grading.instructor.verdicts.sandbox import FILE_BYTES, TMP_BYTES, bubblewrap, sandboxed
from grading.instructor.verdicts.wire import ChangedInPlace, Peer, PipeClosed, RemoteError
from grading.instructor.processes import dies_with_parent, kill_group
from grading.instructor.verdicts.zygote import SANDBOX_ENV, SHARED, WORKER_ENV, ForkedWorker, worker_folder



MAX_RESTARTS = 50  # after a time-out or a crash the worker reloads the answers (the notebook's time limit bounds it)


class AnswerTimeout(TimeoutError):
    """The student's code ran past this test's CPU time (``cpu``), or past the wall-clock backstop."""

    def __init__(self, message: str, cpu: bool = False):
        super().__init__(message)
        self.cpu = cpu


class AnswerCrashed(RuntimeError):
    """The worker stopped (a crash, os._exit(), exhausted memory) while running the student's code."""


class SetupFailed(RuntimeError):
    """The instructor's setup or read-only cells failed: no test can be graded, and no student is to blame."""


class Answers:
    """The sandboxed worker holding one student's answer cells."""

    def __init__(self, chunks: list[tuple[str, str, str]], forbidden: dict[str, tuple[str, ...]], reference_package: str,
                 private_packages: list[str], memory_mb: int = 0, load_timeout: float = 120, cpu_s: float = 0):
        self.chunks = [list(c) for c in chunks]
        self.settings = {"forbidden": {k: list(v) for k, v in forbidden.items()},
                         "reference_package": reference_package, "private_packages": private_packages,
                         "cpu_s": cpu_s}  # CPU seconds for one test cell (the worker's own RLIMIT_CPU)
        self.memory_mb, self.load_timeout = memory_mb, load_timeout
        # a worker's CPU time in all, loading included: the kernel's backstop when the cell's own limit was undone
        self.cpu_hard_s = int(load_timeout + 2 * cpu_s) if cpu_s else 0
        self.tampered: set[str] = set()  # library functions an answer replaced in its own worker
        self.folder: Path | None = None  # the worker's program, copied only if it is started on its own
        self.process: subprocess.Popen | None = None
        self.peer: Peer | None = None
        self.deadline = float("inf")
        self.names: set[str] = set()
        self.failures: dict[str, str] = {}  # answer chunks that raised while loading, and why
        self.skipped: set[str] = set()  # chunks that stopped or hung the worker: never loaded again
        self.loadable: list[list] | None = None  # the chunks that loaded one by one, in order, last time
        self.restarts = 0
        self.used = False  # True once a test cell called an answer in the current worker
        self.callable = True  # False while the checker prepares: the notebook's examples do not run answers

    @property
    def failed(self) -> list[tuple[str, str]]:
        return list(self.failures.items())

    @property
    def sandboxed(self) -> bool:
        return bubblewrap() is not None

    def _wait(self) -> None:
        """Before each read from the worker: give up (and kill it) once the deadline has passed."""
        remaining = self.deadline - time.monotonic()
        ready, _, _ = select.select([self.process.stdout], [], [], max(0.0, remaining) if remaining < 1e9 else None)
        if not ready:
            self.close()
            raise AnswerTimeout("no answer before the wall-clock limit")

    def _spawn(self) -> None:
        """A fresh worker: forked by the grading worker's zygote (grading.instructor.verdicts.zygote), or started on its own."""
        limit = {"GRADING_MEMORY_LIMIT_MB": str(self.memory_mb), "GRADING_CPU_HARD_S": str(self.cpu_hard_s),
                 "GRADING_FILE_BYTES": str(FILE_BYTES)}
        self.process = SHARED.fork_worker(limit)
        if self.process is None:
            self.folder = self.folder or worker_folder("answer-worker-")
            env = {**limit, **WORKER_ENV}
            argv = sandboxed([sys.executable, "-I", str(self.folder / "answer_worker.py")], [self.folder], env)
            self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.DEVNULL, bufsize=0, start_new_session=True,
                                            env={**SANDBOX_ENV, **env},  # nothing of the checker's
                                            preexec_fn=dies_with_parent())
        # the answers' in-place changes to their arguments are not made here: the tests' oracles read them
        self.peer = Peer(self.process.stdout, self.process.stdin, on_wait=self._wait, mirrors_changes=False)

    def _load(self, chunks: list[list]) -> None:
        self.deadline = time.monotonic() + self.load_timeout
        reply, _ = self.peer.request("load", {"chunks": chunks, **self.settings})
        self.names = set(reply["names"])
        self.failures.update(dict(reply["failed"]))
        self.tampered.update(reply.get("tampered", []))

    def start(self) -> None:
        """Start the worker and load the chunks one by one; one that hangs or stops it is left out, the rest load.

        Chunks are (label, source, role): ``answer``, ``locked`` (the instructor's read-only cells, which
        must load: SetupFailed otherwise) or ``given`` (definitions from the student's other cells).
        """
        deadline = self.deadline  # loading has its own limit; the test cell's comes back after it
        try:
            self._start()
        finally:
            self.deadline = deadline

    def _start(self) -> None:
        self._spawn()
        if self.loadable is not None and self._loaded_at_once():
            return
        loaded: list[list] = []
        for chunk in self.chunks:
            label, _, kind = chunk
            if label in self.skipped:
                continue
            try:
                self._load_blaming_the_right_chunk(chunk, loaded)
                loaded.append(chunk)
            except (AnswerTimeout, PipeClosed, RemoteError, OSError) as error:
                self.close()
                if kind == "locked":
                    raise SetupFailed(f"the {label} cell did not load in the answer worker: "
                                      f"{_why_stopped(error, self.load_timeout)}") from error
                self.skipped.add(label)
                if kind == "answer":
                    self.failures[label] = _why_stopped(error, self.load_timeout)
                self._spawn_holding(loaded)
            self._stop_if_the_setup_raised([chunk])
        self.loadable = loaded

    def _loaded_at_once(self) -> bool:
        """Load the chunks that loaded one by one last time in a single request (each test cell's fresh worker
        loads them again: one request instead of one per chunk); False, with a fresh worker, where that worker
        stopped or hung, so that they load one by one again and the chunk to blame is found."""
        try:
            self._load(self.loadable)
        except (AnswerTimeout, PipeClosed, RemoteError, OSError):
            self.close()
            self._spawn()
            return False
        self._stop_if_the_setup_raised(self.loadable)
        return True

    def _stop_if_the_setup_raised(self, chunks: list[list]) -> None:
        """SetupFailed where one of the instructor's read-only cells among ``chunks`` raised while loading."""
        raised = [label for label, _, kind in chunks if kind == "locked" and label in self.failures]
        if raised:
            self.close()
            raise SetupFailed(f"the {raised[0]} cell raised in the answer worker: {self.failures[raised[0]]}")

    def _load_blaming_the_right_chunk(self, chunk: list, loaded: list[list]) -> None:
        """Load ``chunk``; if the worker stopped meanwhile, load it once more in a fresh worker holding the chunks
        loaded before it. A chunk can signal a process that the worker depends on (its parent, say), which then
        ends the worker while the *next* chunk loads: the chunk to blame is the one that stops a fresh worker too."""
        try:
            self._load([chunk])
        except (PipeClosed, OSError):
            self.close()
            self._spawn_holding(loaded)
            self._load([chunk])

    def _spawn_holding(self, loaded: list[list]) -> None:
        """A fresh worker with the chunks ``loaded`` so far loaded again (after the last one was closed)."""
        self._spawn()
        if loaded:
            self._load(loaded)

    def new_cell(self) -> None:
        """Before a test cell: the worker that served the last one goes, with every thread, file, module change and
        record of inputs its answers left; the cell's first call starts a fresh one (a fork, loading the answers
        again), whose CPU-time limit is the cell's."""
        if self.used:
            self.close()
            self.used = False

    def call(self, name: str, args: tuple, kwargs: dict, count: bool = False) -> Any:
        """``name(*args, **kwargs)`` in the worker; starts it first for a new test cell, or after a crash. With
        ``count``: ``(result, counts)``, the top-level PyTorch calls the worker counted (grading.student.watch)."""
        if not self.callable:
            raise AnswerError("NotCalled", f"{name} is not run outside the tests")
        if self.process is None and not self.used:  # a new test cell's worker, not a restart
            self.start()
        elif self.process is None or self.process.poll() is not None:
            if self.restarts >= MAX_RESTARTS:
                raise AnswerCrashed(f"your answers were stopped {self.restarts} times (time-outs or crashes), so the "
                                    "remaining tests did not run them again")
            self.restarts += 1
            self.start()
        if name not in self.names:
            failed = "; ".join(f"{label}: {why}" for label, why in self.failures.items())
            raise AnswerError("NameError", f"{name} is not defined in the notebook" + (f" ({failed})" if failed else ""))
        self.used = True
        try:
            if not count:
                return self.peer.call(name, args, kwargs)
            result = self.peer.call(name, args, kwargs, extra={"count": True})
            return result, _counts(self.peer.counted)
        except PipeClosed as error:
            ended = self.close()
            if ended == signal.SIGXCPU:
                raise AnswerTimeout("the CPU time limit", cpu=True) from error
            if ended == signal.SIGSYS:
                raise AnswerCrashed("your code tried to start another process, which answers may not do while "
                                    "they are graded (the grader stopped it there)") from error
            raise AnswerCrashed("Python stopped while running your code (a crash, os._exit() or exhausted "
                                "memory)") from error

    def close(self) -> int | None:
        """Stop the worker: the signal that had ended it on its own, if any (SIGXCPU: its CPU time ran out)."""
        if isinstance(self.process, ForkedWorker):
            self.process.end()
            ended = self.process.signal
        else:
            code = self.process.poll() if self.process is not None else None
            ended = -code if code is not None and code < 0 else None
            kill_group(self.process)
        self.process = None
        return ended

    def __enter__(self) -> "Answers":
        try:
            self.start()
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)


def _why_stopped(error: BaseException, timeout: float) -> str:
    if isinstance(error, AnswerTimeout):
        return f"TimeoutError: the cell did not finish running within {timeout:g} s"
    if isinstance(error, RemoteError):
        return f"{error.kind}: {error}"
    return "the cell stopped Python (a crash, os._exit() or exhausted memory)"


def _cap_note(message: str) -> str:
    """What the sandbox's caps on files say when an answer ran into them (errno 27 EFBIG, 28 ENOSPC)."""
    if "[Errno 27]" in message or "[Errno 28]" in message:
        return (f" (while it is graded, an answer may write files of at most {FILE_BYTES // 2**20} MB, and "
                f"{TMP_BYTES // 2**20} MB in all in /tmp)")
    return ""


def _counts(reply: Any) -> dict:
    """The worker's counts as the tests expect them; anything else counts as the most calls (a worker that does not
    say is not believed to be fast)."""
    try:
        return {"calls": int(reply["calls"]), "names": [str(n) for n in reply["names"]][:10000],
                "largest": int(reply["largest"])}
    except (TypeError, KeyError, ValueError):
        return {"calls": 2**62, "names": [], "largest": 2**62}


class RemoteFunction:
    """A student's graded function, evaluated in the worker; ``grading.student.checks.call`` recognises it."""

    __module__ = "__main__"  # what grading.student.checks.call expects of a function written in the notebook

    def __init__(self, answers: Answers, name: str, parameters: list[str] = ()):
        self.answers, self.__name__, self.__qualname__ = answers, name, name
        self.parameters = list(parameters)  # the syllabus's names of its arguments, for messages

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.__grading_remote__(args, kwargs)

    def __grading_remote__(self, args: tuple, kwargs: dict, count: bool = False) -> Any:
        """Called by grading.student.checks.call (and call_counted, with ``count``): the worker watches for the
        exercise's forbidden calls (and counts the PyTorch calls)."""
        try:
            return self.answers.call(self.__name__, args, kwargs, count)
        except RemoteError as error:
            if error.kind == "NotImplementedError":
                raise NotImplementedError(str(error)) from None
            if error.kind == "Forbidden":
                raise forbidden_failure(self.__name__, str(error)) from None
            raise AnswerError(error.kind, f"{error}{_cap_note(str(error))}\n  "
                                          f"{raised.the_call(self.__name__, self.parameters, args, kwargs)}") from None
        except ChangedInPlace as error:
            raise ExerciseFailure(f"{self.__name__} {error}: a graded function must leave the tensors and lists it "
                                  "is given as they were (the tests compute what they expect from them).",
                                  "do not change what it is given in place (x += ..., x[i] = ..., .mul_(), "
                                  ".append(), .sort()): compute new ones (x = x + ..., torch.where, .clone(), "
                                  "[*ids, eos], sorted())") from None

    def __repr__(self) -> str:
        return f"<function {self.__name__}>"
