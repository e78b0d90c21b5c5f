"""The course server's grading worker refuses to start where it cannot sandbox the answers."""
import os
import subprocess
import sys

from grading.instructor.course import REPO


def test_a_worker_that_cannot_sandbox_stops_at_once_with_one_line_saying_why():
    # no bwrap on the PATH; a broker nobody answers on, which a worker that started would wait for
    env = {**os.environ, "PATH": "/nonexistent", "GRADING_SANDBOX": "required",
           "GRADING_BROKER": "redis://127.0.0.1:9/0"}
    try:
        done = subprocess.run([sys.executable, "-m", "grading.hub.worker", "--concurrency", "1"], env=env, cwd=REPO,
                              capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        raise AssertionError("the worker started without its sandbox and waited for the broker") from None
    lines = done.stderr.strip().splitlines()
    assert done.returncode != 0 and len(lines) == 1, done.stderr[-2000:]
    assert lines[0].startswith("ERROR: GRADING_SANDBOX=required, but bubblewrap (bwrap) cannot start") \
        and "apt-get install bubblewrap" in lines[0], lines
