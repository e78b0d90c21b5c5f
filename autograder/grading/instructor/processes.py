"""Processes the grading starts in sessions of their own, stopped with everything they started.

A grading command that is itself stopped (killed, even with SIGKILL) takes them with it: each grading worker
ends when the command's end of its stdin hangs up (grading.instructor.workers.local), each process started
from a worker ends with the thread that started it (:func:`dies_with_parent`, the kernel's parent-death
signal), and the files a worker writes about a student live in its scratch folder (:func:`scratch_folder`),
removed when it ends. Failing that, a folder named after a process no longer running is removed by the next
process on this machine that makes one of its kind (:func:`own_folder`).
"""
import ctypes
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

SCRATCH = "GRADING_SCRATCH"  # the environment variable naming a grading worker's scratch folder
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


def own_folder(prefix: str, parent: str | None = None) -> Path:
    """A new folder ``<prefix><pid>-*`` in ``parent`` (the system's temporary folder by default), named after this
    process, after removing the folders of its kind there whose process is no longer running (killed before it
    could remove them)."""
    parent = Path(parent or tempfile.gettempdir())
    for folder in parent.glob(prefix + "*"):
        owner = re.match(rf"{re.escape(prefix)}(\d+)-", folder.name)
        if owner and not _running(int(owner.group(1))):
            shutil.rmtree(folder, ignore_errors=True)
    return Path(tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-", dir=parent))


def scratch_folder() -> Path:
    """A new folder for one grading worker's files (the student's notebook while it is checked), made by the
    grading command, which removes it with the worker (as does the worker when the command has ended)."""
    return own_folder("grading-scratch-")


@contextmanager
def in_scratch(prefix: str) -> Iterator[Path]:
    """A temporary folder in this grading worker's scratch folder (SCRATCH), or in the system's where there is none
    (a queue's worker): removed at the end, or by the next one made where this process was killed first."""
    folder = own_folder(prefix, os.environ.get(SCRATCH))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True
