"""The embedded grading workers: a grading process that dies says so, in the line the grading command reports."""
import os
import signal
import threading
import time

from grading.instructor.course import REPO, nbgrader_environment
from grading.instructor.workers.local import Worker


def test_a_killed_grading_process_names_its_end_as_an_error():
    worker = Worker(REPO, nbgrader_environment({}))

    def kill_it_mid_request():
        while worker.process is None:
            time.sleep(0.01)
        time.sleep(0.5)  # the request is sent; the process still imports PyTorch (seconds) before it reads it
        os.kill(worker.process.pid, signal.SIGKILL)  # as the kernel kills a process out of memory

    killer = threading.Thread(target=kill_it_mid_request)
    killer.start()
    try:
        ok, log = worker.run("export", ["--help"])
    finally:
        killer.join()
        worker.close()
    assert not ok
    # grading.instructor.grade gives a failed notebook's first ERROR line as the reason it was not graded
    assert [line for line in log.splitlines() if "ERROR" in line] == [
        "[GradingWorker | ERROR] the grading process stopped (killed, or out of memory)"]
