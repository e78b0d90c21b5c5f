"""The course server's processes: started, health-checked and stopped by the project, on loopback only.

- PostgreSQL, the gradebook: a cluster of its own in ``<state>/postgres`` (run as Debian's ``postgres`` user, as
  PostgreSQL refuses root), password authentication; the class's work folder names it in ``gradebook.url``
  only once it answers, so an unreachable server is never saved as the class's gradebook.
- Redis, the grading queue's broker, with a password (students share this machine's loopback).
- The grading workers (Celery, grading.instructor.workers.queue), run as the grader account.
- JupyterHub (as root: PAM logins and each student's server as that student), with its proxy from
  ``autograder/hub/node_modules`` and formgrader as its service.

Each one that cannot start stops ``up`` with one line saying which, why and what to do (ServiceError); what it
had started keeps running for ``down``, which stops whatever runs, in reverse order. Passwords live in files only
root and the grader account read, never on a command line (``ps`` shows those to every student).
"""
import glob
import os
import pwd
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.error import URLError
from urllib.request import urlopen

from grading.hub.course import Course
from grading.instructor.course import REPO
from grading.instructor.gradebook import database

START_TIMEOUT_S = 90
STOP_TIMEOUT_S = 30
PROXY = REPO / "autograder" / "hub" / "node_modules" / ".bin" / "configurable-http-proxy"
HUB_CONFIG = Path(__file__).with_name("jupyterhub_config.py")
BIN = Path(sys.executable).parent
QUEUE_URL = "queue.url"  # beside gradebook.url in the class's work folder: the broker, with its password


class ServiceError(RuntimeError):
    """A service cannot start (or stop); the one-line message says which, why and what to do."""


def _folder(course: Course, name: str, owner: pwd.struct_passwd | None = None, mode: int = 0o700) -> Path:
    path = course.server.state / name
    path.mkdir(parents=True, exist_ok=True)
    if owner is not None:
        os.chown(path, owner.pw_uid, owner.pw_gid)
    os.chmod(path, mode)
    return path


def _secret(course: Course, name: str) -> str:
    """A password kept in ``<state>/secrets/`` (root only), drawn the first time."""
    path = _folder(course, "secrets") / name
    if not path.is_file():
        path.write_text(secrets.token_urlsafe(24))
        os.chmod(path, 0o600)
    return path.read_text()


def _answers(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
        return True
    except OSError:
        return False


def _free(port: int, what: str, setting: str, course: Course) -> None:
    if _answers(port):
        raise ServiceError(f"cannot start {what}: port {port} on 127.0.0.1 is taken by another program; stop it or "
                           f"choose another [server] {setting} in {course.source}")


def _wait(ready, what: str, log: Path, process: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise ServiceError(f"{what} stopped while starting (exit {process.returncode}): {_last_error(log)}")
        if ready():
            return
        time.sleep(0.2)
    raise ServiceError(f"{what} did not answer within {START_TIMEOUT_S} s; its log: {log}")


def _last_error(log: Path) -> str:
    lines = [line.strip() for line in log.read_text(errors="replace").splitlines() if line.strip()] \
        if log.is_file() else []
    # JupyterHub's "[E ...]" and "[C ...]", PostgreSQL's FATAL, a traceback's last line; not a request that failed
    errors = [line for line in lines if line.startswith(("[E ", "[C ", "FATAL", "ERROR")) or " FATAL: " in line
              or re.match(r"\w+(\.\w+)*(Error|Exception): ", line)]
    return (errors or lines or ["(no log)"])[-1][-300:] + f" (log: {log})"


def grader(course: Course) -> pwd.struct_passwd:
    return pwd.getpwnam(course.grader_account)


# PostgreSQL ------------------------------------------------------------------------------------------------------


def postgres_programs() -> Path | None:
    """Where initdb and pg_ctl are: Debian keeps them out of PATH, in /usr/lib/postgresql/<version>/bin."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda path: int(path.split("/")[4]))
    if shutil.which("initdb"):
        return Path(os.path.realpath(shutil.which("initdb"))).parent
    return Path(found[-1]).parent if found else None


def _as(account: pwd.struct_passwd, *command) -> list[str]:
    return ["runuser", "-u", account.pw_name, "--", *map(str, command)]


def start_postgres(course: Course) -> str:
    """The gradebook's server; its database URL (for the grader account's role), once it answers."""
    programs = postgres_programs()
    if programs is None:
        raise ServiceError("cannot start PostgreSQL (the gradebook): it is not installed; run `make services` as "
                           "root (Debian: apt-get install postgresql)")
    try:
        owner = pwd.getpwnam("postgres")
    except KeyError:
        raise ServiceError("cannot start PostgreSQL: there is no `postgres` account to run it as (PostgreSQL "
                           "refuses root); reinstall Debian's postgresql package") from None
    folder = _folder(course, "postgres", owner)
    data, log, port = folder / "data", folder / "server.log", course.server.postgres_port
    password, role = _secret(course, "postgres"), "grader"
    url = f"postgresql://{role}:{password}@127.0.0.1:{port}/gradebook"
    if _pg_ready(url):
        return url
    _free(port, "PostgreSQL", "postgres_port", course)
    if not (data / "PG_VERSION").is_file():
        pwfile = folder / "pwfile"
        pwfile.write_text(password)
        os.chown(pwfile, owner.pw_uid, owner.pw_gid)
        made = subprocess.run(_as(owner, programs / "initdb", "-D", data, "-U", "postgres", "--pwfile", pwfile,
                                  "--auth-host=scram-sha-256", "--auth-local=peer", "-E", "UTF8"),
                              capture_output=True, text=True)
        pwfile.unlink()
        if made.returncode != 0:
            raise ServiceError(f"cannot start PostgreSQL: initdb failed: {made.stderr.strip().splitlines()[-1:]}")
    settings = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1"
    started = subprocess.run(_as(owner, programs / "pg_ctl", "-D", data, "-l", log, "-o", settings, "-w", "-t",
                                 str(START_TIMEOUT_S), "start"), capture_output=True, text=True)
    if started.returncode != 0:
        raise ServiceError(f"cannot start PostgreSQL: {_last_error(log)}")
    _make_gradebook(port, password, role)
    _wait(lambda: _pg_ready(url), "PostgreSQL", log)
    return url


def _make_gradebook(port: int, password: str, role: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(f"postgresql://postgres:{password}@127.0.0.1:{port}/postgres", autocommit=True) as admin:
        if not admin.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [role]).fetchone():
            admin.execute(sql.SQL("CREATE ROLE {} LOGIN PASSWORD {}").format(sql.Identifier(role),
                                                                               sql.Literal(password)))
        if not admin.execute("SELECT 1 FROM pg_database WHERE datname = 'gradebook'").fetchone():
            admin.execute(sql.SQL("CREATE DATABASE gradebook OWNER {}").format(sql.Identifier(role)))


def _pg_ready(url: str) -> bool:
    import psycopg

    try:
        psycopg.connect(url, connect_timeout=2).close()
        return True
    except psycopg.OperationalError:
        return False


def stop_postgres(course: Course) -> bool:
    data = course.server.state / "postgres" / "data"
    programs = postgres_programs()
    if programs is None or not (data / "postmaster.pid").is_file():
        return False
    subprocess.run(_as(pwd.getpwnam("postgres"), programs / "pg_ctl", "-D", data, "-m", "fast", "-w", "stop"),
                   capture_output=True)
    return True


# Redis and the grading workers -------------------------------------------------------------------------------------


def start_redis(course: Course) -> str:
    """The grading queue's broker, run as the grader account; its URL (with the password) once it answers."""
    program = shutil.which("redis-server")
    if program is None:
        raise ServiceError("cannot start Redis (the grading queue): it is not installed; run `make services` as "
                           "root (Debian: apt-get install redis-server)")
    account = grader(course)
    folder = _folder(course, "redis", account)
    port, password = course.server.redis_port, _secret(course, "redis")
    url = f"redis://:{password}@127.0.0.1:{port}/0"
    if _redis_ready(url):
        return url
    _free(port, "Redis", "redis_port", course)
    settings = folder / "redis.conf"
    settings.write_text(f"port {port}\nbind 127.0.0.1\nrequirepass {password}\ndir {folder}\nsave \"\"\n"
                        f"appendonly no\ndaemonize yes\npidfile {folder / 'redis.pid'}\n"
                        f"logfile {folder / 'redis.log'}\n")
    os.chown(settings, account.pw_uid, account.pw_gid)
    os.chmod(settings, 0o600)
    started = subprocess.run(_as(account, program, settings), capture_output=True, text=True)
    if started.returncode != 0:
        raise ServiceError(f"cannot start Redis: {started.stderr.strip() or _last_error(folder / 'redis.log')}")
    _wait(lambda: _redis_ready(url), "Redis", folder / "redis.log")
    return url


def _redis_ready(url: str) -> bool:
    import redis

    try:
        with redis.Redis.from_url(url, socket_timeout=2) as client:
            return client.ping()
    except redis.RedisError:
        return False


def start_workers(course: Course, broker: str) -> None:
    """The Celery grading workers, run as the grader account, until their heartbeat shows in Redis. The students'
    answers run as nobody in the bubblewrap sandbox they start (grading.instructor.verdicts.sandbox), which they
    require: without it an answer would run as the grader account, which can read the class's work folder."""
    import redis

    from grading.instructor.workers import queue

    name = f"hub-{course.course_id}@{socket.gethostname()}"
    with redis.Redis.from_url(broker) as client:
        if client.exists(queue.alive_key(name)) and _running(course, "workers"):
            return
    log = _folder(course, "logs", mode=0o755) / "workers.log"
    account = grader(course)
    with log.open("ab") as output:
        process = subprocess.Popen(
            _as(account, BIN / "python", "-m", "grading.hub.worker", "--concurrency", course.server.workers,
                "--name", name),
            env={**os.environ, "GRADING_BROKER": broker, "GRADING_WORKDIR": str(course.workdir),
                 "GRADING_COURSE_ID": course.course_id, "HOME": account.pw_dir, "USER": account.pw_name,
                 "GRADING_SANDBOX": "required"},
            cwd=REPO, stdout=output,
            stderr=subprocess.STDOUT, start_new_session=True)
    _keep_pid(course, "workers", process.pid)

    def beating() -> bool:
        with redis.Redis.from_url(broker) as client:
            return bool(client.exists(queue.alive_key(name)))

    _wait(beating, "the grading workers", log, process)


# JupyterHub -----------------------------------------------------------------------------------------------------


def start_hub(course: Course) -> None:
    """JupyterHub (as root) with formgrader as its service, until both answer."""
    if not PROXY.is_file():
        raise ServiceError("cannot start JupyterHub: its proxy is not installed; run `make hub` (npm ci in "
                           "autograder/hub/ installs configurable-http-proxy)")
    if not (BIN / "jupyterhub").is_file():
        raise ServiceError("cannot start JupyterHub: it is not installed; run `make hub` (it installs "
                           "requirements-hub.txt)")
    url = f"http://127.0.0.1:{course.server.hub_port}/hub/health"
    if _running(course, "hub") and _http_ok(url):
        return
    _free(course.server.hub_port, "JupyterHub", "hub_port", course)
    _free(course.server.formgrader_port, "formgrader", "formgrader_port", course)
    _free(course.server.proxy_api_port, "JupyterHub's proxy", "proxy_api_port", course)
    _free(course.server.hub_api_port, "JupyterHub", "hub_api_port", course)
    folder = _folder(course, "jupyterhub")
    log = _folder(course, "logs", mode=0o755) / "jupyterhub.log"
    environment = {**os.environ, "GRADING_HUB_COURSE": str(course.source),
                   "PATH": os.pathsep.join([str(PROXY.parent), str(BIN), os.environ.get("PATH", "")])}
    with log.open("ab") as output:
        process = subprocess.Popen([BIN / "jupyterhub", "-f", HUB_CONFIG], cwd=folder, env=environment,
                                   stdout=output, stderr=subprocess.STDOUT, start_new_session=True)
    _keep_pid(course, "hub", process.pid)
    _wait(lambda: _http_ok(url), "JupyterHub", log, process)
    _wait(lambda: _answers(course.server.formgrader_port), "formgrader (the hub's service)", log, process)


def _http_ok(url: str) -> bool:
    try:
        with urlopen(url, timeout=2) as response:
            return response.status == 200
    except (URLError, OSError):
        return False


# process bookkeeping ---------------------------------------------------------------------------------------------


def _pid_file(course: Course, name: str) -> Path:
    return course.server.state / "run" / f"{name}.pid"


def _keep_pid(course: Course, name: str, pid: int) -> None:
    _folder(course, "run")
    _pid_file(course, name).write_text(str(pid))


def _running(course: Course, name: str) -> int | None:
    """The session of what ``name`` started, while any process of it runs (the hub's proxy outlives a hub that
    failed, for instance)."""
    path = _pid_file(course, name)
    if not path.is_file():
        return None
    pid = int(path.read_text())
    try:
        os.killpg(pid, 0)
        return pid
    except ProcessLookupError:
        return None


def _stop_process(course: Course, name: str) -> bool:
    """SIGTERM to what ``name`` started (its own session), SIGKILL after STOP_TIMEOUT_S; whether it ran."""
    pid = _running(course, name)
    _pid_file(course, name).unlink(missing_ok=True)
    if pid is None:
        return False
    os.killpg(pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_TIMEOUT_S
    while time.monotonic() < deadline:
        try:  # reap it where this process started it (`up` then `down` in one process): a zombie stays in its group
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            pass
        try:
            os.killpg(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.2)
    os.killpg(pid, signal.SIGKILL)
    return True


def stop_hub(course: Course) -> bool:
    """JupyterHub, which stops the students' servers, formgrader and its proxy; the proxy too where the hub
    could not (it runs in a session of its own, and outlives a hub that failed to start)."""
    stopped = _stop_process(course, "hub")
    proxy = course.server.state / "jupyterhub" / "proxy.pid"
    if proxy.is_file():
        try:
            os.kill(int(proxy.read_text()), signal.SIGTERM)
        except (ProcessLookupError, ValueError):
            pass
        proxy.unlink(missing_ok=True)
    return stopped


def stop_redis(course: Course) -> bool:
    pidfile = course.server.state / "redis" / "redis.pid"
    if not pidfile.is_file():
        return False
    try:
        os.kill(int(pidfile.read_text()), signal.SIGTERM)
    except (ProcessLookupError, ValueError):
        return False
    deadline = time.monotonic() + STOP_TIMEOUT_S
    while pidfile.is_file() and time.monotonic() < deadline:
        time.sleep(0.2)
    return True


# the whole server -------------------------------------------------------------------------------------------------


def check_python(course: Course) -> None:
    """Every account runs this environment's Python: its interpreter and its folders must be open to them."""
    account = grader(course)
    tried = subprocess.run(_as(account, sys.executable, "-c", "import grading.hub"), capture_output=True, text=True)
    if tried.returncode != 0:
        raise ServiceError(f"other accounts cannot run this environment's Python ({os.path.realpath(sys.executable)}):"
                           f" {tried.stderr.strip().splitlines()[-1] if tried.stderr.strip() else 'refused'}; make "
                           f".venv with a Python in a folder every account may enter (`make env PYTHON=/usr/bin/python3"
                           f".11`), or open the folders on its path to them (e.g. chmod o+x /root for pyenv's)")


def up(course: Course, say=print) -> None:
    """Start every service (those already running are kept), each checked before the next starts."""
    check_python(course)
    gradebook = start_postgres(course)
    database.choose(course.workdir, gradebook)  # only now that it answers
    _grader_file(course, database.FILE)
    say(f"PostgreSQL (gradebook): 127.0.0.1:{course.server.postgres_port}")
    broker = start_redis(course)
    (course.workdir / QUEUE_URL).write_text(broker + "\n")
    _grader_file(course, QUEUE_URL)
    say(f"Redis (grading queue): 127.0.0.1:{course.server.redis_port}")
    start_workers(course, broker)
    say(f"grading workers: {course.server.workers} (log: {course.server.state / 'logs' / 'workers.log'})")
    start_hub(course)
    say(f"JupyterHub: http://127.0.0.1:{course.server.hub_port}/ (formgrader: /services/{course.course_id}/)")


def _grader_file(course: Course, name: str) -> None:
    account = grader(course)
    os.chown(course.workdir / name, account.pw_uid, account.pw_gid)
    os.chmod(course.workdir / name, 0o600)


def down(course: Course, say=print) -> None:
    """Stop whatever of the course server runs, the hub first."""
    for name, stop in (("JupyterHub", lambda: stop_hub(course)),
                       ("grading workers", lambda: _stop_process(course, "workers")),
                       ("Redis", lambda: stop_redis(course)), ("PostgreSQL", lambda: stop_postgres(course))):
        say(f"{name}: {'stopped' if stop() else 'was not running'}")
