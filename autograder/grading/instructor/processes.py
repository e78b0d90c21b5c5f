"""Processes the grading starts in sessions of their own, stopped with everything they started."""
import os
import signal
import subprocess


def kill_group(process: subprocess.Popen | None) -> None:
    """Kill a process started in a session of its own, with everything it started, and reap it."""
    if process is not None and process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()
