"""Grading fanned out over a real Celery queue on a real Redis, recorded in a real PostgreSQL gradebook.

Two grading workers run as separate processes, each in a network namespace of its own joined to this one by a
veth pair, as two machines would be (where the machine allows; else on loopback, and the test says so): from
there the broker is reachable and the gradebook is not. The class's grades through the queue must equal the
one-machine run's, and a worker process killed in the middle of a notebook must lose no grade and double none; a notebook that
kills every worker that takes it must end failed after MAX_WORKERS_LOST losses, not come back forever.
"""
import hashlib
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from grading.instructor.example_class import build_submission, load_students
from grading.instructor.grade import grade
from grading.instructor.processes import kill_group

from tests.services import network_hosts, redis_on

CHAPTER = "01_tokens"
WORKERS = 2
STUDENTS = 3  # enough for both workers to be busy and one to be killed while the others go on
POISON_KILLING_S = 60  # how long the test kills every worker that takes the poison notebook (a few s each)


@pytest.fixture(scope="module")
def class_folder(tmp_path_factory) -> Path:
    """The first students of the chapter's example class (right and wrong answers)."""
    folder = tmp_path_factory.mktemp("queue-class") / "submitted"
    for student in load_students(CHAPTER)[:STUDENTS]:
        build_submission(student, CHAPTER, folder)
    return folder


@pytest.fixture(scope="module")
def one_machine(class_folder, tmp_path_factory, grading_workers) -> dict:
    """Each student's row of the chapter's grades, graded on this machine alone (the embedded defaults)."""
    outcomes = grade(CHAPTER, class_folder, tmp_path_factory.mktemp("one-machine"), progress=False,
                     workers=grading_workers)
    return {o.submission.student: (o.status, o.row.raw, o.row.max_score, o.row.status) for o in outcomes}


@pytest.fixture(scope="module")
def hosts():
    with network_hosts(WORKERS) as made:
        yield made


@pytest.fixture(scope="module")
def broker(hosts):
    """(URL for this machine, [URL for each worker]) of a Redis server reachable from the workers' hosts, with a
    password as instructors/workers.md asks of one off loopback."""
    separate = not isinstance(hosts, str)
    addresses = ["127.0.0.1", *(here for _, here, _ in hosts)] if separate else ["127.0.0.1"]
    password = secrets.token_hex(16)
    with redis_on(addresses, password) as port:
        here = f"redis://:{password}@127.0.0.1:{port}/0"
        there = [f"redis://:{password}@{address}:{port}/0" for _, address, _ in hosts] if separate else [here] * WORKERS
        yield here, there


@pytest.fixture(scope="module")
def workers(hosts, broker, tmp_path_factory):
    """Two grading workers (one notebook at a time each), started with the documented command."""
    if isinstance(hosts, str):
        print(f"workers on loopback: {hosts}")
    started, logs = [], []
    for number, url in enumerate(broker[1]):
        command = [sys.executable, "-m", "grading.instructor.workers.queue", f"--broker={url}", "--concurrency=1",
                   f"--name=worker{number}@test"]
        if not isinstance(hosts, str):
            command = ["ip", "netns", "exec", hosts[number][0], *command]
        log = (tmp_path_factory.mktemp("worker") / "worker.log").open("w")
        started.append(subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True))
        logs.append(Path(log.name))
    from grading.instructor.workers.queue import configure

    app = configure(broker[0])
    deadline = time.monotonic() + 300  # each imports PyTorch and the checker first
    try:
        while len(app.control.ping(timeout=1)) < WORKERS:
            assert time.monotonic() < deadline, f"the grading workers did not start: {logs[0].read_text()[-3000:]}"
            assert all(process.poll() is None for process in started), "a grading worker exited while starting"
        yield app
    finally:
        for process in started:
            kill_group(process)


def gradebook_counts(db_url: str) -> dict[str, int]:
    """How many submissions and grades the gradebook holds per student."""
    import sqlalchemy

    engine = sqlalchemy.create_engine(db_url)
    with engine.connect() as connection:
        rows = connection.execute(sqlalchemy.text(
            "select student.id, count(distinct submitted_assignment.id), count(grade.id) from student "
            "join submitted_assignment on submitted_assignment.student_id = student.id "
            "join submitted_notebook on submitted_notebook.assignment_id = submitted_assignment.id "
            "join grade on grade.notebook_id = submitted_notebook.id group by student.id"))
        counts = {student: (submissions, grades) for student, submissions, grades in rows}
    engine.dispose()
    return counts


def graded_through_queue(class_folder, workdir, db_url, broker, jobs=1):
    from grading.instructor.gradebook import database
    from grading.instructor.workers.queue import QueueWorkers

    database.choose(workdir, db_url)
    with QueueWorkers(broker, jobs) as queued:
        outcomes = grade(CHAPTER, class_folder, workdir, progress=False, workers=queued)
    rows = {o.submission.student: (o.status, o.row.raw, o.row.max_score, o.row.status) for o in outcomes}
    return rows, {task: recorded.student for task, recorded in queued.recorded.items()}


def test_the_queue_grades_as_one_machine_does(class_folder, one_machine, workers, broker, postgresql_url, tmp_path):
    rows, recorded = graded_through_queue(class_folder, tmp_path, postgresql_url, broker[0])
    assert rows == one_machine
    assert sorted(recorded.values()) == sorted(one_machine)  # each notebook recorded once
    busy = {workers.backend.get_task_meta(task)["worker"] for task in recorded}
    assert busy == {f"worker{n}@test" for n in range(WORKERS)}, "both workers took notebooks"
    counts = gradebook_counts(postgresql_url)
    assert {student for student, (submissions, _) in counts.items() if submissions == 1} == set(one_machine)


def test_a_worker_killed_mid_notebook_loses_no_grade_and_doubles_none(class_folder, one_machine, workers, broker,
                                                                      postgresql_url, tmp_path):
    killed = []

    def kill_the_first_busy_worker():
        deadline = time.monotonic() + 120
        while not killed and time.monotonic() < deadline:
            for tasks in (workers.control.inspect(timeout=0.5).active() or {}).values():
                if tasks and tasks[0].get("worker_pid"):
                    os.kill(tasks[0]["worker_pid"], signal.SIGKILL)  # the process grading it, mid-notebook
                    killed.append(tasks[0]["id"])
                    return

    killer = threading.Thread(target=kill_the_first_busy_worker)
    killer.start()
    rows, recorded = graded_through_queue(class_folder, tmp_path, postgresql_url, broker[0])
    killer.join()
    assert killed, "no worker was caught grading"
    assert killed[0] in recorded, "the killed notebook was graded again and recorded"
    assert rows == one_machine
    assert sorted(recorded.values()) == sorted(one_machine)
    counts = gradebook_counts(postgresql_url)
    assert set(counts) == set(one_machine)
    assert all(submissions == 1 for submissions, _ in counts.values())
    assert len({grades for _, grades in counts.values()}) == 1, "every student has each grade cell once"


def test_a_notebook_that_kills_every_worker_ends_failed_and_the_queue_goes_on(class_folder, one_machine, workers,
                                                                               broker, postgresql_url, tmp_path):
    from grading.instructor.workers.abc import MAX_WORKERS_LOST

    poison, ordinary = sorted(one_machine)[:2]
    folder = tmp_path / "submitted"
    folder.mkdir()
    for student in (poison, ordinary):
        shutil.copytree(class_folder / student, folder / student)
    poison_task = f"{CHAPTER}.{hashlib.sha256(poison.encode()).hexdigest()[:16]}."  # workers.queue.key's prefix
    killed, graded = [], threading.Event()

    def kill_every_worker_that_takes_the_poison():
        # as a notebook that exhausts the machine's memory would: every delivery, for as long as it comes back
        deadline = time.monotonic() + POISON_KILLING_S
        while not graded.is_set() and time.monotonic() < deadline:
            # both workers' answers, or what came within 0.5 s: one poll is a broadcast's round trip, not 0.5 s
            for tasks in (workers.control.inspect(timeout=0.5, limit=WORKERS).active() or {}).values():
                for task in tasks:
                    pid = task.get("worker_pid")
                    if task["id"].startswith(poison_task) and pid and pid not in killed:
                        os.kill(pid, signal.SIGKILL)
                        killed.append(pid)

    killer = threading.Thread(target=kill_every_worker_that_takes_the_poison)
    killer.start()
    start = time.monotonic()
    try:
        rows, recorded = graded_through_queue(folder, tmp_path / "work", postgresql_url, broker[0])
    finally:
        graded.set()
        killer.join()
    elapsed = time.monotonic() - start
    assert len(killed) >= MAX_WORKERS_LOST, f"the poison notebook was caught grading only {len(killed)} times"
    status, raw, _, csv_status = rows[poison]
    assert (status, raw) == ("failed", 0), f"the poison notebook was graded after {len(killed)} killed workers"
    # at least the limit: a kill that lands on the delivery that reports the limit makes one loss more
    lost = re.search(r"stopped the grading worker (\d+) times", csv_status)
    assert csv_status.startswith("failed: ") and lost and int(lost.group(1)) >= MAX_WORKERS_LOST, csv_status
    assert "it was not graded again" in csv_status
    assert rows[ordinary] == one_machine[ordinary]
    assert sorted(recorded.values()) == [ordinary]
    assert elapsed < POISON_KILLING_S, "the poison notebook held the queue until the test stopped killing"
