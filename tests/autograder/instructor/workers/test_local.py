"""The embedded grading workers: a grading process that dies says so, in the line the grading command reports, and
a notebook it was grading is graded again in a fresh one, up to MAX_WORKERS_LOST times."""
import os
import signal
import threading
import time

from grading.instructor.course import REPO, nbgrader_environment
from grading.instructor.workers.abc import MAX_WORKERS_LOST
from grading.instructor.workers.local import GradingWorkers, Worker


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


def kill_each_new_process(workers: GradingWorkers, times: int, started: list[int]) -> threading.Thread:
    """Kill the grading process ``times`` times, each new one soon after it starts (mid-request, while it imports)."""
    def kill():
        deadline = time.monotonic() + 60  # no new process by then: the notebook was not graded again
        for _ in range(times):
            while not (workers.all[0].process and workers.all[0].process.pid not in started):
                if time.monotonic() > deadline:
                    return
                time.sleep(0.01)
            started.append(workers.all[0].process.pid)
            time.sleep(0.3)
            os.kill(started[-1], signal.SIGKILL)  # as the kernel kills a process out of memory

    killer = threading.Thread(target=kill)
    killer.start()
    return killer


def test_a_notebook_whose_grading_process_is_killed_is_graded_again_in_a_fresh_one(tmp_path):
    started = []
    with GradingWorkers(1) as workers:
        killer = kill_each_new_process(workers, 1, started)
        # `nbgrader autograde --help`: a request that succeeds whenever a live process gets it
        ok, log = workers.autograde("--help", "alice", tmp_path / "x.ipynb", {}, [], timeout=120)
        killer.join()
        assert ok, log
        assert workers.all[0].process.pid not in started  # killed once, then a fresh process did it


def test_a_notebook_that_kills_every_grading_process_is_given_up_after_three(tmp_path):
    started = []
    with GradingWorkers(1) as workers:
        killer = kill_each_new_process(workers, MAX_WORKERS_LOST, started)
        ok, log = workers.autograde("--help", "alice", tmp_path / "x.ipynb", {}, [], timeout=120)
        killer.join()
    assert not ok and len(started) == MAX_WORKERS_LOST
    assert log == (f"[GradingWorker | ERROR] the notebook stopped the grading process {MAX_WORKERS_LOST} times "
                   "(killed, or out of memory); it was not graded again")
