"""Real PostgreSQL and Redis servers for the tests that need a shared gradebook or a task queue.

Each server starts once per test session, from Debian's packages, on loopback on a free port, with its data in a
temporary folder that goes at the end; each test gets a fresh database (``postgresql_url``) or an emptied Redis
(``redis_url``), so a test costs a ``CREATE DATABASE``, not a server start. Where a package is missing the
fixture installs it when it can (root with apt-get, as in CI: ``make test`` runs the Makefile's ``services``
step first) and otherwise skips the test and says what to install. Nothing here is a stand-in: the tests talk to
the same servers a course would run.
"""

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from contextlib import contextmanager

import pytest

POSTGRES_PACKAGE = "postgresql"
REDIS_PACKAGE = "redis-server"
START_TIMEOUT_S = 60


def free_port():
    """A TCP port on loopback that nothing listens on now (the kernel's choice for port 0)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def debian_install(package):
    """Installs a Debian package where this process may (root with apt-get); returns why not, or None."""
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        return f"install the Debian package {package} (needs root and apt-get to install it here)"
    environment = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", package]):
        done = subprocess.run(command, env=environment, capture_output=True, text=True)
        if done.returncode != 0:
            return f"`{' '.join(command)}` failed: {done.stderr.strip()[-500:]}"
    return None


def postgres_programs():
    """The folder of initdb and pg_ctl: Debian keeps them out of PATH, in /usr/lib/postgresql/<version>/bin."""
    on_path = shutil.which("initdb")
    if on_path:
        return os.path.dirname(os.path.realpath(on_path))
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda path: int(path.split("/")[4]))
    return os.path.dirname(found[-1]) if found else None


def server_user():
    """PostgreSQL refuses to run as root: as root the server runs as the package's postgres user (or nobody)."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    return None


def as_user(user, command):
    return command if user is None else ["runuser", "-u", user.pw_name, "--", *command]


def wait_until(ready, what, process=None):
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"{what} exited with status {process.returncode} while starting")
        if ready():
            return
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not answer within {START_TIMEOUT_S} s")


def connects(port):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
        return True
    except OSError:
        return False


@pytest.fixture(scope="session")
def postgresql_server():
    """``(port, admin_url)`` of a PostgreSQL server started for this session (trust authentication on
    loopback only, fsync off: a throw-away test cluster, never a course's)."""
    programs = postgres_programs()
    if programs is None:
        reason = debian_install(POSTGRES_PACKAGE)
        programs = postgres_programs()
        if programs is None:
            pytest.skip(f"PostgreSQL is not installed: {reason}")
    psycopg = pytest.importorskip("psycopg", reason="psycopg is missing: run `make env`")
    user = server_user()
    folder = tempfile.mkdtemp(prefix="pg-")
    data = os.path.join(folder, "data")
    if user is not None:
        os.chown(folder, user.pw_uid, user.pw_gid)
    port = free_port()
    log = os.path.join(folder, "server.log")
    subprocess.run(
        as_user(user, [f"{programs}/initdb", "-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"]),
        check=True,
        capture_output=True,
    )
    settings = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off"
    settings += " -c synchronous_commit=off -c max_connections=200"
    started = subprocess.run(
        as_user(user, [f"{programs}/pg_ctl", "-D", data, "-l", log, "-o", settings, "-w", "-t", "60", "start"]),
        capture_output=True,
        text=True,
    )
    if started.returncode != 0:
        with open(log) as text:
            raise RuntimeError(f"PostgreSQL did not start: {started.stderr}{text.read()[-2000:]}")
    admin_url = f"postgresql://postgres@127.0.0.1:{port}/postgres"
    try:
        psycopg.connect(admin_url).close()
        yield port, admin_url
    finally:
        subprocess.run(as_user(user, [f"{programs}/pg_ctl", "-D", data, "-m", "immediate", "-w", "stop"]), capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


database_numbers = itertools.count()


@pytest.fixture
def postgresql_url(postgresql_server):
    """A fresh, empty database on the session's PostgreSQL server, as a SQLAlchemy/nbgrader ``db_url``;
    dropped after the test (connections still open are ended first)."""
    import psycopg

    port, admin_url = postgresql_server
    name = f"test_{os.getpid()}_{next(database_numbers)}"
    admin = psycopg.connect(admin_url, autocommit=True)
    try:
        with admin.cursor() as cursor:
            cursor.execute(f'CREATE DATABASE "{name}"')
        yield f"postgresql://postgres@127.0.0.1:{port}/{name}"
        with admin.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        admin.close()


@pytest.fixture(scope="session")
def redis_server():
    """The port of a Redis server started for this session (loopback only, nothing persisted)."""
    with redis_on(["127.0.0.1"]) as port:
        yield port


@pytest.fixture
def redis_url(redis_server):
    """``redis://`` URL of the session's Redis server, emptied for this test (FLUSHALL)."""
    redis = pytest.importorskip("redis", reason="the redis client is missing: run `make env`")
    url = f"redis://127.0.0.1:{redis_server}/0"
    client = redis.Redis.from_url(url)
    client.flushall()
    client.close()
    return url


def _ip(*args):
    return subprocess.run(["ip", *args], check=True, capture_output=True, text=True)


@contextmanager
def network_hosts(count):
    """``count`` network namespaces, each joined to this one by its own veth pair, as machines on a network of
    their own would be: yields ``[(namespace, address here, address there)]``, or the reason there are none
    (not root, no iproute2, or a kernel that refuses). Inside a namespace only its link exists: this
    machine's loopback services (the gradebook's PostgreSQL) are out of reach from there."""
    if os.geteuid() != 0 or shutil.which("ip") is None:
        yield "separate network namespaces need root and iproute2"
        return
    tag, made = os.getpid() % 10000, []
    subnet = 100 + os.getpid() % 100  # 10.<subnet>.<n>.0/24: distinct for test runs side by side
    try:
        for number in range(1, count + 1):
            namespace, here, there = f"grading-{tag}-{number}", f"gq{tag}h{number}", f"gq{tag}w{number}"
            _ip("netns", "add", namespace)
            made.append((namespace, here))
            _ip("link", "add", here, "type", "veth", "peer", "name", there)
            _ip("link", "set", there, "netns", namespace)
            _ip("addr", "add", f"10.{subnet}.{number}.1/24", "dev", here)
            _ip("link", "set", here, "up")
            for command in (["addr", "add", f"10.{subnet}.{number}.2/24", "dev", there], ["link", "set", there, "up"],
                            ["link", "set", "lo", "up"]):
                _ip("netns", "exec", namespace, "ip", *command)
    except subprocess.CalledProcessError as error:
        for namespace, here in made:
            subprocess.run(["ip", "link", "del", here], capture_output=True)
            subprocess.run(["ip", "netns", "del", namespace], capture_output=True)
        yield f"separate network namespaces are refused here: {error.stderr.strip()}"
        return
    try:
        yield [(namespace, f"10.{subnet}.{n}.1", f"10.{subnet}.{n}.2") for n, (namespace, _) in enumerate(made, 1)]
    finally:
        for namespace, here in made:
            subprocess.run(["ip", "link", "del", here], capture_output=True)
            subprocess.run(["ip", "netns", "del", namespace], capture_output=True)


@contextmanager
def redis_on(addresses, password=None):
    """The port of a Redis server listening on ``addresses`` (nothing persisted), stopped at the end. Off
    loopback Redis accepts only clients that give the ``password`` (its protected mode refuses them otherwise)."""
    program = shutil.which("redis-server")
    if program is None:
        reason = debian_install(REDIS_PACKAGE)
        program = shutil.which("redis-server")
        if program is None:
            pytest.skip(f"Redis is not installed: {reason}")
    folder = tempfile.mkdtemp(prefix="redis-")
    port = free_port()
    command = [program, "--port", str(port), "--bind", *addresses, "--dir", folder, "--save", "", "--appendonly", "no"]
    if password:
        command += ["--requirepass", password]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_until(lambda: connects(port), "redis-server", server)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=30)
        shutil.rmtree(folder, ignore_errors=True)
