"""Processes the grading starts in sessions of their own, stopped with everything they started.

A grading command that is itself stopped (killed, even with SIGKILL) takes them with it: each grading worker
ends when the command's end of its stdin hangs up (grading.instructor.workers.local), each process started
from a worker ends with the thread that started it (:func:`dies_with_parent`, the kernel's parent-death
signal), and the files a worker writes about a student live in its scratch folder (:func:`scratch_folder`),
removed when it ends and, failing that, by the next grading command on this machine.
"""
import ctypes
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

SCRATCH = "GRADING_SCRATCH"  # the environment variable naming a grading worker's scratch folder
_SCRATCH_PREFIX = "grading-scratch-"  # then the pid of the grading command that made it
_PR_SET_PDEATHSIG = 1


def kill_group(process: subprocess.Popen | None) -> None:
    """Kill a process started in a session of its own, with everything it started, and reap it."""
    if process is not None and process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()


def dies_with_parent() -> Callable[[], None] | None:
    """A ``preexec_fn`` for subprocess.Popen: the child is killed (SIGKILL) when the thread that started it ends,
    killed or not (Linux's PR_SET_PDEATHSIG; None elsewhere). Start such a child from a thread that lives as long
    as its process (the main thread), since the kernel watches the thread."""
    if sys.platform != "linux":
        return None
    prctl, parent = ctypes.CDLL(None, use_errno=True).prctl, os.getpid()  # looked up here: the child only calls

    def in_the_child() -> None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:  # the parent ended before the signal was asked for
            os.kill(os.getpid(), signal.SIGKILL)
    return in_the_child


def scratch_folder() -> Path:
    """A new folder for one grading worker's files (the student's notebook while it is checked), named after this
    process, after removing those that grading commands no longer running left behind (killed with their worker)."""
    for folder in Path(tempfile.gettempdir()).glob(_SCRATCH_PREFIX + "*"):
        owner = re.match(rf"{_SCRATCH_PREFIX}(\d+)-", folder.name)
        if owner and not _running(int(owner.group(1))):
            shutil.rmtree(folder, ignore_errors=True)
    return Path(tempfile.mkdtemp(prefix=f"{_SCRATCH_PREFIX}{os.getpid()}-"))


def in_scratch(prefix: str) -> tempfile.TemporaryDirectory:
    """A temporary folder in this grading worker's scratch folder (SCRATCH), or in the system's where there is none."""
    return tempfile.TemporaryDirectory(prefix=prefix, dir=os.environ.get(SCRATCH))


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True
