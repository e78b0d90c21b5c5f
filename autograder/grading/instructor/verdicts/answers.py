"""A student's answers, loaded in a sandboxed worker, as functions the trusted checker can call.

:class:`Answers` starts ``answer_worker.py`` in the sandbox (grading.instructor.verdicts.sandbox) with
only the three files it needs, loads the answer cells there, and restarts it after a time-out
or a crash. :class:`RemoteFunction` stands in the checker's namespace for each graded
function: calling it sends the arguments as plain data and returns plain data (with
gradients through it, grading.instructor.verdicts.wire).
"""
import os
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import torch

from grading.student.checks import forbidden_failure
from grading.instructor.verdicts.sandbox import bubblewrap, sandboxed
from grading.instructor.verdicts.wire import Peer, PipeClosed, RemoteError
from grading.instructor.processes import kill_group
from grading.instructor.verdicts.zygote import SHARED, WORKER_ENV, ForkedWorker, worker_folder



MAX_RESTARTS = 50  # after a time-out or a crash the worker reloads the answers (the notebook's time limit bounds it)


class AnswerTimeout(TimeoutError):
    """The student's code ran past the time left for this test."""


class AnswerError(Exception):
    """The student's code raised ``kind`` (the worker reports its class name and message only)."""

    def __init__(self, kind: str, message: str):
        super().__init__(f"{kind}: {message}")
        self.kind = kind


class AnswerCrashed(RuntimeError):
    """The worker stopped (a crash, os._exit(), exhausted memory) while running the student's code."""


class SetupFailed(RuntimeError):
    """The instructor's setup or read-only cells failed: no test can be graded, and no student is to blame."""


class Answers:
    """The sandboxed worker holding one student's answer cells."""

    def __init__(self, chunks: list[tuple[str, str, str]], forbidden: dict[str, tuple[str, ...]], reference_package: str,
                 private_packages: list[str], memory_mb: int = 0, load_timeout: float = 120):
        self.chunks = [list(c) for c in chunks]
        self.settings = {"forbidden": {k: list(v) for k, v in forbidden.items()},
                         "reference_package": reference_package, "private_packages": private_packages}
        self.memory_mb, self.load_timeout = memory_mb, load_timeout
        self.folder: Path | None = None  # the worker's program, copied only if it is started on its own
        self.process: subprocess.Popen | None = None
        self.peer: Peer | None = None
        self.deadline = float("inf")
        self.names: set[str] = set()
        self.failures: dict[str, str] = {}  # answer chunks that raised while loading, and why
        self.skipped: set[str] = set()  # chunks that stopped or hung the worker: never loaded again
        self.restarts = 0
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
        ready, _, _ = select.select([self.process.stdout], [], [], max(0.0, remaining))
        if not ready:
            self.close()
            raise AnswerTimeout("no answer before the time limit")

    def _spawn(self) -> None:
        """A fresh worker: forked by the grading worker's zygote (grading.instructor.verdicts.zygote), or started on its own."""
        limit = {"GRADING_MEMORY_LIMIT_MB": str(self.memory_mb)}
        self.process = SHARED.fork_worker(limit)
        if self.process is None:
            self.folder = self.folder or worker_folder("answer-worker-")
            env = {**limit, **WORKER_ENV}
            argv = sandboxed([sys.executable, "-I", str(self.folder / "answer_worker.py")], [self.folder], env)
            self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.DEVNULL, bufsize=0, start_new_session=True,
                                            env={"PATH": os.environ.get("PATH", ""), **env})  # nothing of the checker's
        self.peer = Peer(self.process.stdout, self.process.stdin, on_wait=self._wait)

    def _load(self, chunks: list[list]) -> None:
        self.deadline = time.monotonic() + self.load_timeout
        reply, _ = self.peer.request("load", {"chunks": chunks, **self.settings})
        self.names = set(reply["names"])
        self.failures.update(dict(reply["failed"]))

    def start(self) -> None:
        """Start the worker and load the chunks one by one; one that hangs or stops it is left out, the rest load.

        Chunks are (label, source, role): ``answer``, ``locked`` (the instructor's read-only cells, which
        must load: SetupFailed otherwise) or ``given`` (definitions from the student's other cells).
        """
        self._spawn()
        loaded: list[list] = []
        for chunk in self.chunks:
            label, _, kind = chunk
            if label in self.skipped:
                continue
            try:
                self._load([chunk])
                loaded.append(chunk)
            except (AnswerTimeout, PipeClosed, RemoteError, OSError) as error:
                self.close()
                if kind == "locked":
                    raise SetupFailed(f"the {label} cell did not load in the answer worker: "
                                      f"{_why_stopped(error, self.load_timeout)}") from error
                self.skipped.add(label)
                if kind == "answer":
                    self.failures[label] = _why_stopped(error, self.load_timeout)
                self._spawn()
                if loaded:
                    self._load(loaded)
            if kind == "locked" and label in self.failures:
                self.close()
                raise SetupFailed(f"the {label} cell raised in the answer worker: {self.failures[label]}")

    def call(self, name: str, args: tuple, kwargs: dict) -> Any:
        """``name(*args, **kwargs)`` in the worker; restarts it first if an earlier call killed it."""
        if not self.callable:
            raise AnswerError("NotCalled", f"{name} is not run outside the tests")
        if self.process is None or self.process.poll() is not None:
            if self.restarts >= MAX_RESTARTS:
                raise AnswerCrashed(f"your answers were stopped {self.restarts} times (time-outs or crashes), so the "
                                    "remaining tests did not run them again")
            self.restarts += 1
            self.start()
        if name not in self.names:
            failed = "; ".join(f"{label}: {why}" for label, why in self.failures.items())
            raise AnswerError("NameError", f"{name} is not defined in the notebook" + (f" ({failed})" if failed else ""))
        try:
            return self.peer.call(name, args, kwargs)
        except PipeClosed as error:
            self.close()
            raise AnswerCrashed("Python stopped while running your code (a crash, os._exit() or exhausted "
                                "memory)") from error

    def close(self) -> None:
        if isinstance(self.process, ForkedWorker):
            self.process.end()
        else:
            kill_group(self.process)
        self.process = None

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


def _shown(value: Any) -> str:
    if isinstance(value, torch.Tensor):
        return f"<{str(value.dtype).removeprefix('torch.')} {list(value.shape)}" + (
            f" on {value.device}>" if value.device.type != "cpu" else ">")
    if isinstance(value, (list, tuple)) and any(isinstance(v, torch.Tensor) for v in value):
        inner = ", ".join(_shown(v) for v in value[:6]) + (", ..." if len(value) > 6 else "")
        return f"[{inner}]" if isinstance(value, list) else f"({inner})"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class RemoteFunction:
    """A student's graded function, evaluated in the worker; ``grading.student.checks.call`` recognises it."""

    __module__ = "__main__"  # what grading.student.checks.call expects of a function written in the notebook

    def __init__(self, answers: Answers, name: str, parameters: list[str] = ()):
        self.answers, self.__name__, self.__qualname__ = answers, name, name
        self.parameters = list(parameters)  # the syllabus's names of its arguments, for messages

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.__grading_remote__(args, kwargs)

    def __grading_remote__(self, args: tuple, kwargs: dict) -> Any:
        """Called by grading.student.checks.call: the worker watches for the exercise's forbidden calls."""
        try:
            return self.answers.call(self.__name__, args, kwargs)
        except RemoteError as error:
            if error.kind == "NotImplementedError":
                raise NotImplementedError(str(error)) from None
            if error.kind == "Forbidden":
                raise forbidden_failure(self.__name__, str(error)) from None
            raise AnswerError(error.kind, f"{error}\n  in the call {self.__name__}({self._described(args, kwargs)})") \
                from None

    def _described(self, args: tuple, kwargs: dict) -> str:
        """The call's arguments as a student can check them: a tensor's dtype and shape, a short value otherwise."""
        named = [*zip(self.parameters, args), *((None, a) for a in args[len(self.parameters):]), *kwargs.items()]
        return ", ".join(f"{name}={_shown(value)}" if name else _shown(value) for name, value in named)

    def __repr__(self) -> str:
        return f"<function {self.__name__}>"
