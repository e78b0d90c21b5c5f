"""Grading on several machines: Celery workers compute each notebook's verdicts, this machine records them.

The grading command hands every notebook to a Celery task queue on a Redis broker; grading workers on any
number of machines take one notebook per task, run the trusted checker and its sandboxed answer worker on it
(grading.instructor.verdicts, exactly as on one machine) and send the verdicts back through Redis. The grading
command stays the one writer: its local nbgrader processes record each notebook's verdicts in the gradebook
(TrustedVerdicts.verdicts_file), then write the feedback and the grades as on one machine. The workers never
open the gradebook.

Start a worker on each grading machine (a checkout of the same course commit, after ``make env sandbox``):

    .venv/bin/python -m grading.instructor.workers.queue --broker redis://grading-host:6379/0 [--concurrency 2]

then grade from the machine that holds the gradebook:

    .venv/bin/python -m grading.instructor.grade CHAPTER FOLDER --queue redis://grading-host:6379/0

Exactly once: a task is acknowledged only after its verdicts are stored (``acks_late``); a worker killed in the
middle of a notebook returns it to the queue (``reject_on_worker_lost``), and a machine that vanishes returns
its notebook after the broker's visibility timeout. A notebook checked twice gives the same verdicts under the
same key (chapter, student and a fingerprint of the hand-in and the checker's settings), which is recorded once.

A lost machine is noticed in seconds, not after the visibility timeout: each worker's main process renews a Redis
key with a short lifetime (``grading.alive.<worker>``, every HEARTBEAT_S, lasting HEARTBEAT_TTL_S) and notes each
notebook it receives under the task's id with the message's delivery tag (``grading.taken.<task>``). The grading
command, while it waits for a notebook, looks whether the worker that took it still beats; when it stopped (killed
whole, or its machine gone), the command puts the message back in the queue at once (kombu's ``restore_by_tag``)
and says which notebooks went back from which worker; every SHOWN_EVERY_S it says which notebooks each worker
holds, when that changed. The next delivery counts it as one lost worker, as a killed
pool process is. The visibility timeout stays as long as before, for slow notebooks.

A notebook that stops every worker that takes it (it makes the machine run out of memory, say) would come back
forever: each delivery is counted in Redis under the task's id, and once MAX_WORKERS_LOST workers were lost
with it the next delivery does not grade it but answers why, and the submission fails with that reason (score
0), as the local workers do (grading.instructor.workers.abc.MAX_WORKERS_LOST).
"""
import argparse
import hashlib
import json
import os
import socket
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import nbformat
from celery import Celery, signals
from celery.exceptions import TimeLimitExceeded
from celery.utils.nodenames import default_nodename, host_format
from kombu.utils.url import maybe_sanitize_url
from traitlets.config.loader import PyFileConfigLoader

from grading.instructor.course import REPO, GradingError, nbgrader_environment
from grading.instructor.verdicts.preprocessor import TrustedVerdicts
from grading.instructor.workers.abc import MAX_WORKERS_LOST, WorkerTimeout, checker_options
from grading.instructor.workers.local import GradingWorkers, preload

QUEUE = "grading"
# a notebook whose worker's machine vanished (no acknowledgement, no connection) is handed out again after this
# long: longer than any notebook may run (grading.instructor.grade's time limit, 600 s by default)
VISIBILITY_TIMEOUT_S = 1800
IN_FLIGHT = 256  # notebooks handed to the queue at once by one grading command
POLL_S = 0.25  # how often the command looks for a notebook's verdicts (latency only: many are in flight)
NO_WORKER_WARNING_S = 2  # how long the command waits for a worker to answer a ping before warning
DELIVERIES_KEPT_S = 86400  # how long Redis keeps a notebook's count of deliveries: as long as Celery's results
HEARTBEAT_S = 2  # how often a worker's main process says that it is alive
HEARTBEAT_TTL_S = 15  # a worker silent this long is lost: several missed beats, so a busy machine is not taken for one
SHOWN_EVERY_S = 5  # how often the command says which notebooks are on which worker, when that changed

app = Celery("grading", set_as_current=False)
app.conf.update(
    task_acks_late=True,  # acknowledged once the verdicts are stored, not when the notebook is taken
    task_reject_on_worker_lost=True,  # a worker process killed mid-notebook puts the notebook back
    task_acks_on_failure_or_timeout=True,  # over the time limit is a verdict (scored 0), not a retry
    worker_prefetch_multiplier=1,  # a worker holds only the notebook it grades: the others stay for the others
    task_default_queue=QUEUE,
    task_serializer="json",
    result_serializer="json",
    accept_content=["json"],
    result_extended=True,  # the verdicts' metadata names the worker that computed them
    broker_connection_retry_on_startup=True,
    worker_hijack_root_logger=False,
)


def configure(broker: str, visibility_timeout_s: int = VISIBILITY_TIMEOUT_S) -> Celery:
    """The app on this broker, which also carries the verdicts back (its result backend)."""
    if app.conf.broker_url not in (None, broker):
        _forget_connections()
    app.conf.update(broker_url=broker, result_backend=broker,
                    broker_transport_options={"visibility_timeout": visibility_timeout_s},
                    result_backend_transport_options={"visibility_timeout": visibility_timeout_s})
    return app


def _forget_connections() -> None:
    """Drop what the app keeps connected to its last broker: Celery builds its connection pool, its producers' pool
    and its result backend once, from the settings of the moment, so a process that grades through a second broker
    would otherwise send its notebooks, pings and result lookups to the first one."""
    app._pool = None  # as Celery's own after-fork reset does
    if "amqp" in app.__dict__:
        app.amqp._producer_pool = None
    app._backend_cache = None  # the backend, kept here or per thread
    app._local = threading.local()


def _course_config():
    """The course's nbgrader configuration (its TrustedVerdicts settings), as nbgrader itself reads it."""
    return PyFileConfigLoader("nbgrader_config.py", path=str(REPO)).load_config()


def deliveries(task) -> int:
    """How many times ``task``'s message has been handed to a worker, this time included. Counted in the Redis
    that every worker shares, under the task's id: the broker only says whether a message was handed out before
    (``redelivered``), and Celery's own ``task_retry_on_worker_lost`` counts only the losses that the worker's
    main process outlives, not a whole worker killed for memory or a machine gone."""
    name = f"grading.deliveries.{task.request.id}"
    with task.backend.client.pipeline() as redis:
        count, _ = redis.incr(name).expire(name, DELIVERIES_KEPT_S).execute()
    return count


def alive_key(worker: str) -> str:
    """The Redis key a live worker keeps renewing (its heartbeat)."""
    return f"grading.alive.{worker}"


def _taken(task_id: str) -> str:
    return f"grading.taken.{task_id}"


def beat(worker: str) -> None:
    """Keep saying, from this (the worker's main) process, that ``worker`` is alive, and note each notebook it
    receives with the message's delivery tag, which puts it back in the queue."""
    redis = app.backend.client

    def beating() -> None:
        while True:
            redis.set(alive_key(worker), "1", ex=HEARTBEAT_TTL_S)
            time.sleep(HEARTBEAT_S)

    def received(sender=None, request=None, **_) -> None:
        taken = {"worker": worker, "tag": request.message.delivery_tag}
        redis.set(_taken(request.id), json.dumps(taken), ex=DELIVERIES_KEPT_S)

    redis.set(alive_key(worker), "1", ex=HEARTBEAT_TTL_S)
    threading.Thread(target=beating, name="heartbeat", daemon=True).start()
    signals.task_received.connect(received, weak=False)


@app.task(name="grading.verdicts", bind=True)
def verdicts(self, chapter: str, notebook: str, checker: dict[str, int]) -> dict:
    """The trusted checker's result for one notebook (``{"result": ...}``), or why it could not check
    (``{"error": ...}``, which the grading command reports as nbgrader would)."""
    lost = deliveries(self) - 1  # every earlier delivery ended with its worker gone, or it would not be back
    if lost >= MAX_WORKERS_LOST:
        return {"error": f"[QueueWorker | ERROR] the notebook stopped the grading worker {lost} times (killed, out "
                         "of memory or its machine lost); it was not graded again"}
    graded, start = nbformat.reads(notebook, as_version=4), time.perf_counter()
    try:
        result = TrustedVerdicts(config=_course_config(), **checker).checked(graded, chapter)
    except RuntimeError as error:
        return {"error": f"[AutogradeApp | ERROR] {error}"}
    return {"result": result, "seconds": time.perf_counter() - start}


def key(chapter: str, student: str, notebook: str, checker: dict[str, int]) -> str:
    """The task's id: one per chapter, student, hand-in and checker settings, so that a notebook handed out twice
    is one result, recorded once."""
    fingerprint = hashlib.sha256(json.dumps([notebook, checker], sort_keys=True).encode()).hexdigest()[:32]
    return f"{chapter}.{hashlib.sha256(student.encode()).hexdigest()[:16]}.{fingerprint}"


@dataclass
class Recorded:
    """A notebook whose verdicts this command recorded: whose, and the seconds they took to compute (on a
    worker) and to record (here)."""

    student: str
    checked_s: float
    recorded_s: float


class QueueWorkers(GradingWorkers):
    """Verdicts computed by the queue's workers, recorded here by ``jobs`` local nbgrader processes."""

    def __init__(self, broker: str, jobs: int, in_flight: int = IN_FLIGHT):
        self.app, shown = configure(broker), maybe_sanitize_url(broker)  # shown: without its password
        try:
            with self.app.connection_for_write() as connection:
                connection.ensure_connection(max_retries=1)
        except Exception as error:  # noqa: BLE001 - any failure to reach the broker is the same message
            raise GradingError(f"cannot reach the grading queue's broker {shown}: {error}") from None
        if not self.app.control.ping(timeout=NO_WORKER_WARNING_S):
            print(f"no grading worker answers on {shown} yet: the notebooks wait in the queue until one starts "
                  f"({sys.executable} -m grading.instructor.workers.queue --broker {shown})", file=sys.stderr)
        super().__init__(jobs)
        self._in_flight = in_flight
        self._sending = threading.Lock()  # one Celery producer, shared by the threads that grade
        self.recorded: dict[str, Recorded] = {}  # by task id: what this command has recorded
        self._waiting: dict[str, str] = {}  # task id: student, of the notebooks handed out and not back yet
        self._closed = threading.Event()
        threading.Thread(target=self._show_in_flight, name="in-flight", daemon=True).start()

    @property
    def in_flight(self) -> int:
        return self._in_flight

    def autograde(self, chapter: str, student: str, notebook: Path, checker: dict[str, int], options: list[str],
                  timeout: float) -> tuple[bool, str]:
        text = notebook.read_text()
        task_id = key(chapter, student, text, checker)
        with self._sending:
            result = verdicts.apply_async((chapter, text, checker), task_id=task_id, time_limit=timeout)
        self._waiting[task_id] = student
        looked = time.monotonic()
        while result.state not in ("SUCCESS", "FAILURE"):
            time.sleep(POLL_S)
            if time.monotonic() - looked >= HEARTBEAT_S:
                self._put_back_if_lost(task_id, student)
                looked = time.monotonic()
        self.app.backend.client.delete(_taken(task_id))
        self._waiting.pop(task_id, None)
        if result.state == "FAILURE":
            if isinstance(result.result, TimeLimitExceeded):
                raise WorkerTimeout(f"ran longer than {timeout:g} s")
            return False, f"[QueueWorker | ERROR] the grading worker failed: {result.result!r}"
        reply = result.result
        if "error" in reply:
            return False, reply["error"]
        start = time.perf_counter()
        ok, log = self._record(chapter, student, task_id, reply["result"], checker, options)
        if ok:
            self.recorded[task_id] = Recorded(student, reply["seconds"], time.perf_counter() - start)
        return ok, log

    def _put_back_if_lost(self, task_id: str, student: str) -> None:
        """Put the notebook back in the queue if the worker that took it stopped beating (this once: the note of
        who took it goes with it, and kombu restores a delivery tag only while it is unacknowledged)."""
        redis = self.app.backend.client
        taken = redis.get(_taken(task_id))
        if not taken:
            return
        taken = json.loads(taken)
        if redis.exists(alive_key(taken["worker"])) or not redis.delete(_taken(task_id)):
            return
        with self.app.connection_for_write() as connection:
            connection.default_channel.qos.restore_by_tag(taken["tag"], leftmost=True)
        print(f"grading worker {taken['worker']} sent no heartbeat for {HEARTBEAT_TTL_S} s: {student}'s notebook "
              "goes back to the queue", file=sys.stderr)

    def _show_in_flight(self) -> None:
        """Say, when it changed, which students' notebooks each worker holds (as the workers noted them)."""
        shown = None
        while not self._closed.wait(SHOWN_EVERY_S):
            waiting = dict(self._waiting)
            holders = self.app.backend.client.mget([_taken(task) for task in waiting]) if waiting else []
            on: dict[str, list[str]] = {}
            for student, taken in zip(waiting.values(), holders):
                if taken:
                    on.setdefault(json.loads(taken)["worker"], []).append(student)
            said = "; ".join(f"{worker}: {', '.join(sorted(students))}" for worker, students in sorted(on.items()))
            if said and said != shown:
                print(f"in flight: {said}", file=sys.stderr)
            shown = said

    def close(self) -> None:
        self._closed.set()
        super().close()

    def _record(self, chapter: str, student: str, task_id: str, result: dict, checker: dict[str, int],
                options: list[str]) -> tuple[bool, str]:
        """nbgrader's autograde with the worker's verdicts in place of the checker: the gradebook's one writer."""
        with tempfile.TemporaryDirectory(prefix="verdicts-") as folder:
            path = Path(folder) / f"{task_id}.json"
            path.write_text(json.dumps(result))
            ok, log = self.run("autograde", chapter, f"--student={student}", "--force", *checker_options(checker),
                               f"--TrustedVerdicts.verdicts_file={path}", *options)
        return ok, log


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Start a grading worker: it takes notebooks from the queue on "
                                                 "BROKER, computes their verdicts and sends them back.")
    parser.add_argument("--broker", required=True, help="the Redis broker, e.g. redis://grading-host:6379/0")
    parser.add_argument("--concurrency", type=int, default=os.cpu_count() or 1,
                        help="notebooks graded at once on this machine (default: one per core)")
    parser.add_argument("--name", default=f"grading-{os.getpid()}@{socket.gethostname()}",
                        help="this worker's name in Celery's monitoring")
    parser.add_argument("--visibility-timeout", type=int, default=VISIBILITY_TIMEOUT_S,
                        help=f"seconds before a notebook whose machine vanished is handed out again "
                             f"(default {VISIBILITY_TIMEOUT_S}; longer than any notebook may run)")
    args = parser.parse_args(argv)
    # one thread per notebook, as on one machine (grading.instructor.workers.local), and the checker's modules
    # imported before the pool forks, so that every process of the pool starts with them
    os.environ.update(nbgrader_environment({"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "MPLBACKEND": "Agg"}))
    os.chdir(REPO)
    preload()
    configure(args.broker, args.visibility_timeout)
    # the name as Celery makes it (%h: this machine's name, and so on), so that two machines started with the same
    # --name=grading@%h beat under their own names: else one's heartbeat would keep the other's notebooks held
    name = host_format(default_nodename(args.name))
    beat(name)
    app.worker_main(["worker", f"--concurrency={args.concurrency}", "--pool=prefork", f"--hostname={name}",
                     f"--queues={QUEUE}", "--loglevel=INFO", "--without-gossip", "--without-mingle"])


if __name__ == "__main__":
    main()
