"""Grading fanned out over a real Celery queue on a real Redis, recorded in a real PostgreSQL gradebook.

Two grading workers run as separate processes, each in a network namespace of its own joined to this one by a
veth pair, as two machines would be (where the machine allows; else on loopback, and the test says so): from
there the broker is reachable and the gradebook is not. The class's grades through the queue must equal the
one-machine run's, and a worker process killed in the middle of a notebook must lose no grade and double none; a notebook that
kills every worker that takes it must end failed after MAX_WORKERS_LOST losses, not come back forever.
"""
import hashlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from grading.instructor.example_class import build_submission, load_students
from grading.instructor.grade import grade
from grading.instructor.processes import kill_group
from grading.instructor.workers.abc import MAX_WORKERS_LOST

from tests.services import network_hosts, redis_on

CHAPTER = "01_tokens"
WORKERS = 2
STUDENTS = 3  # enough for both workers to be busy and one to be killed while the others go on
# deliveries of the poison notebook whose worker the test kills: one more than the queue allows, so that a queue that
# hands the notebook out past its limit grades it at the next delivery, which the test sees, instead of looping
POISON_KILLS = MAX_WORKERS_LOST + 1


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
        namespace = None if isinstance(hosts, str) else hosts[number][0]
        process, log = start_worker(url, f"worker{number}@test", tmp_path_factory.mktemp("worker"), namespace)
        started.append(process)
        logs.append(log)
    from grading.instructor.workers.queue import configure

    app = configure(broker[0])
    try:
        wait_for_workers(app, WORKERS, started, logs[0])
        yield app
    finally:
        for process in started:
            kill_group(process)


def start_worker(url: str, name: str, folder: Path, namespace: str | None = None) -> tuple[subprocess.Popen, Path]:
    """A grading worker (one notebook at a time) started with the documented command, in its own process group."""
    command = [sys.executable, "-m", "grading.instructor.workers.queue", f"--broker={url}", "--concurrency=1",
               f"--name={name}"]
    if namespace:
        command = ["ip", "netns", "exec", namespace, *command]
    log = (folder / "worker.log").open("w")
    return subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True), Path(log.name)


def wait_for_workers(app, count: int, started: list[subprocess.Popen], log: Path) -> None:
    deadline = time.monotonic() + 300  # each imports PyTorch and the checker first
    while len(app.control.ping(timeout=1)) < count:
        assert time.monotonic() < deadline, f"the grading workers did not start: {log.read_text()[-3000:]}"
        assert all(process.poll() is None for process in started), "a grading worker exited while starting"


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


def never_returns(path: Path) -> None:
    """Make the hand-in's build_vocab loop forever: each delivery holds its worker until the test has seen it and
    killed it, however loaded the machine (a quick notebook could be graded between two looks)."""
    nb = json.loads(path.read_text())
    answer = next(c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("grade_id") == "build_vocab")
    answer["source"] = ("def build_vocab(corpus, min_freq=1, max_size=None, specials=('[PAD]', '[UNK]')):\n"
                        "    while True:\n        pass\n")
    path.write_text(json.dumps(nb))


def test_a_notebook_that_kills_every_worker_ends_failed_and_the_queue_goes_on(class_folder, one_machine, workers,
                                                                               broker, postgresql_url, tmp_path):
    poison, ordinary = sorted(one_machine)[:2]
    folder = tmp_path / "submitted"
    folder.mkdir()
    for student in (poison, ordinary):
        shutil.copytree(class_folder / student, folder / student)
    never_returns(folder / poison / CHAPTER / f"{CHAPTER}.ipynb")
    poison_task = f"{CHAPTER}.{hashlib.sha256(poison.encode()).hexdigest()[:16]}."  # workers.queue.key's prefix
    killed, graded = [], threading.Event()

    def kill_every_worker_that_takes_the_poison():
        # as a notebook that exhausts the machine's memory would: every delivery, counted, not timed, so that a
        # loaded machine only makes the test slower
        while not graded.is_set() and len(killed) < POISON_KILLS:
            # both workers' answers, or what came within 0.5 s: one poll is a broadcast's round trip, not 0.5 s
            for tasks in (workers.control.inspect(timeout=0.5, limit=WORKERS).active() or {}).values():
                for task in tasks:
                    pid = task.get("worker_pid")
                    if task["id"].startswith(poison_task) and pid and pid not in killed:
                        os.kill(pid, signal.SIGKILL)
                        killed.append(pid)

    killer = threading.Thread(target=kill_every_worker_that_takes_the_poison)
    killer.start()
    try:
        rows, recorded = graded_through_queue(folder, tmp_path / "work", postgresql_url, broker[0])
    finally:
        graded.set()
        killer.join()
    assert len(killed) >= MAX_WORKERS_LOST, f"the poison notebook was caught grading only {len(killed)} times"
    status, raw, _, csv_status = rows[poison]
    assert (status, raw) == ("failed", 0), f"the poison notebook was graded after {len(killed)} killed workers"
    # at least the limit: a kill that lands on the delivery that reports the limit makes one loss more
    lost = re.search(r"stopped the grading worker (\d+) times", csv_status)
    assert csv_status.startswith("failed: ") and lost and int(lost.group(1)) >= MAX_WORKERS_LOST, csv_status
    assert "it was not graded again" in csv_status
    assert rows[ordinary] == one_machine[ordinary]
    assert sorted(recorded.values()) == [ordinary]


LOST_TO_GRADED_S = 60  # from the kill of a worker's main process to every notebook recorded: generous, for a loaded
# machine; the broker's visibility timeout, which returned such a notebook before heartbeats, is 30 minutes


def test_a_worker_whose_main_process_is_killed_has_its_notebook_graded_by_another_at_once(
        class_folder, one_machine, workers, broker, postgresql_url, tmp_path, capfd):
    name = "lost@test"
    lost, log = start_worker(broker[0], name, tmp_path)
    try:
        wait_for_workers(workers, WORKERS + 1, [lost], log)
        killed, outcome, done = [], {}, threading.Event()

        def kill_it_once_it_grades():
            while not done.is_set() and not killed:
                active = (workers.control.inspect(destination=[name], timeout=0.5).active() or {}).get(name)
                # once the delivery is counted, so that the loss is counted too (the task's first line)
                if active and workers.backend.client.get(f"grading.deliveries.{active[0]['id']}"):
                    os.killpg(lost.pid, signal.SIGKILL)  # its main process and its pool: a machine gone
                    killed.append((active[0]["id"], time.monotonic()))

        def grading():
            outcome["rows"], outcome["recorded"] = graded_through_queue(class_folder, tmp_path / "work",
                                                                        postgresql_url, broker[0])
            done.set()

        killer = threading.Thread(target=kill_it_once_it_grades)
        killer.start()
        threading.Thread(target=grading, daemon=True).start()  # without heartbeats it would wait 30 minutes
        killer.join()
        assert killed, "the extra worker was never caught grading a notebook"
        task, at = killed[0]
        assert done.wait(LOST_TO_GRADED_S), f"the class was not graded {LOST_TO_GRADED_S} s after the kill"
        finished = time.monotonic() - at
    finally:
        kill_group(lost)
    assert outcome["rows"] == one_machine, f"graded {finished:.0f} s after the kill"
    assert sorted(outcome["recorded"].values()) == sorted(one_machine)  # each notebook recorded once
    assert task in outcome["recorded"]
    counts = gradebook_counts(postgresql_url)
    assert all(submissions == 1 for submissions, _ in counts.values()) and set(counts) == set(one_machine)
    # one lost worker counted for it, as for a killed pool process: it was handed out twice
    assert workers.backend.client.get(f"grading.deliveries.{task}") == b"2"
    said = capfd.readouterr().err
    assert f"grading worker {name} sent no heartbeat" in said and "goes back to the queue" in said, said
    assert re.search(r"^in flight: .*@test: \w", said, re.MULTILINE), said  # which notebooks each worker holds


def test_a_worker_named_with_celerys_host_placeholder_beats_under_the_name_celery_gives_it(tmp_path):
    """``--name=grading@%h`` on every machine, as Celery's own workers are named: each heartbeat must carry the
    machine's name, as Celery expands it, or one machine's heartbeat would keep a lost machine's notebooks held."""
    from grading.instructor.workers.queue import configure

    with redis_on(["127.0.0.1"]) as port:
        url = f"redis://127.0.0.1:{port}/0"
        process, log = start_worker(url, "grading@%h", tmp_path)
        try:
            app = configure(url)
            wait_for_workers(app, 1, [process], log)
            name = f"grading@{socket.gethostname()}"
            assert [name] == [worker for reply in app.control.ping(timeout=1) for worker in reply]
            beating = app.backend.client.keys("grading.alive.*")
            assert f"grading.alive.{name}".encode() in beating and b"grading.alive.grading@%h" not in beating, beating
        finally:
            kill_group(process)


def test_a_second_broker_gets_the_notebooks_pings_and_results_of_a_process_that_used_a_first():
    """One process that grades through one queue, then another (the module's workers are still on the first):
    Celery keeps its connections from the first configuration, so without a reset the notebook would go to the
    first broker, and a ping there would answer with the first queue's workers."""
    import redis as redis_client
    from grading.instructor.workers.queue import QUEUE, configure, verdicts

    with redis_on(["127.0.0.1"]) as first, redis_on(["127.0.0.1"]) as second:
        for port in (first, second):
            app = configure(f"redis://127.0.0.1:{port}/0")
            assert app.control.ping(timeout=0.2) == []  # through this broker's pool: no worker on either
            verdicts.apply_async(("01_tokens", "{}", {}), task_id=f"sent-to-{port}")
            app.backend.client.set("grading.test.written", port)
        for port in (first, second):
            server = redis_client.Redis(port=port)
            queued = [json.loads(message)["headers"]["id"] for message in server.lrange(QUEUE, 0, -1)]
            assert queued == [f"sent-to-{port}"], f"broker on {port} holds {queued}"
            assert server.get("grading.test.written") == str(port).encode()
