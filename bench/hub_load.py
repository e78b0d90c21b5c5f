"""A bounded load test of the course server on loopback (`make hub` first, as root): N students log in at once
through the hub's login page (PAM), start their JupyterLab servers, fetch a chapter in them at once, and stop them.

    .venv/bin/python -P bench/hub_load.py --course path/to/course.toml --prefix load --chapter 01_tokens [--at-once 10]

The simulated students are the course file's students whose names begin with ``--prefix`` (``students =
["load01", ..., "load50"]``; `make hub COURSE=...` makes their accounts, `python -m grading.hub release 01_tokens
--course ...` releases the chapter); the bench reads their passwords from ``<state>/passwords.csv``, so it runs as
root. Everything goes the way a student's browser goes, each student in a session of their own, ``--at-once``
students at a time:

- logins: the login page (its XSRF cookie), then the form; the hub's redirect counts as logged in;
- server starts: the hub's REST API with the session's cookie and XSRF token (the home page's *Start My Server*),
  its progress events until the server is ready, then the student's JupyterLab page (the OAuth redirects that
  give the session its server's cookies); the students' servers' memory is read from /proc once all run;
- fetches: the Assignments tab's *Fetch*, a POST to nbgrader's server extension in the student's own server,
  through the hub's proxy (``/user/<name>/assignments/fetch`` with the course and the chapter); it succeeded when
  the chapter's folder is in the student's home (the reply lists the assignments either way);
- the servers are stopped through the hub's REST API at the end, also when something failed.

Prints what succeeded, how long each step took and how many per second, and the servers' memory.
"""
import argparse
import csv
import json
import os
import pwd
import shutil
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import requests

from grading.hub.accounts import PASSWORDS
from grading.hub.course import load

TIMEOUT_S = 300  # one request; a JupyterLab starting on a busy two-core machine takes tens of seconds


class Student:
    """One simulated student's browser session on the hub."""

    def __init__(self, hub: str, name: str):
        self.hub, self.name = hub, name
        self.session = requests.Session()
        self.session.headers["Sec-Fetch-Mode"] = "navigate"  # a page, as a browser says; its scripts' calls say cors

    def _xsrf(self, path: str) -> str:
        """The XSRF cookie that the hub (``/hub/``) or the student's server (``/user/<name>/``) set for ``path``."""
        return next(cookie.value for cookie in self.session.cookies if cookie.name == "_xsrf" and cookie.path == path)

    def _api(self, method: str, path: str, **arguments) -> requests.Response:
        """The hub's REST API, as the browser's JavaScript calls it: the session's cookie and its XSRF token."""
        headers = {"X-XSRFToken": self._xsrf("/hub/"), "Sec-Fetch-Mode": "cors"}
        return self.session.request(method, f"{self.hub}/hub/api/users/{self.name}/{path}", headers=headers,
                                    timeout=TIMEOUT_S, **arguments)

    def log_in(self, password: str) -> bool:
        self.session.get(f"{self.hub}/hub/login", timeout=TIMEOUT_S)
        answer = self.session.post(f"{self.hub}/hub/login", allow_redirects=False, timeout=TIMEOUT_S,
                                   data={"username": self.name, "password": password,
                                         "_xsrf": self.session.cookies.get("_xsrf", path="/hub/")})
        return answer.status_code == 302

    def start_server(self) -> bool:
        started = self._api("POST", "server")
        if started.status_code not in (201, 202):
            return False
        with self._api("GET", "server/progress", stream=True) as events:
            for line in events.iter_lines(decode_unicode=True):
                event = json.loads(line[len("data:"):]) if line.startswith("data:") else {}
                if event.get("failed"):
                    return False
                if event.get("ready"):
                    break
        lab = self.session.get(f"{self.hub}/user/{self.name}/lab", timeout=TIMEOUT_S)
        return lab.ok and f"/user/{self.name}/lab" in lab.url

    def fetch(self, course_id: str, chapter: str) -> bool:
        own = f"/user/{self.name}/"
        answer = self.session.post(f"{self.hub}{own}assignments/fetch", timeout=TIMEOUT_S,
                                   data={"course_id": course_id, "assignment_id": chapter},
                                   headers={"X-XSRFToken": self._xsrf(own), "Sec-Fetch-Mode": "cors"})
        return answer.ok and (Path(pwd.getpwnam(self.name).pw_dir) / chapter).is_dir()

    def stop_server(self) -> bool:
        stopped = self._api("DELETE", "server")
        while stopped.status_code == 202:  # stopping: the hub says so until it has stopped
            time.sleep(0.5)
            stopped = self._api("DELETE", "server")
        return stopped.status_code == 204  # stopped, or none was running


def timed(what: str, job, students: list[Student], at_once: int) -> bool:
    """Run ``job`` for every student, ``at_once`` at a time, and say how fast; whether it succeeded for all."""
    started = time.perf_counter()
    with ThreadPoolExecutor(at_once) as pool:
        results = list(pool.map(job, students))
    seconds = time.perf_counter() - started
    print(f"{what}: {sum(results)}/{len(students)} succeeded in {seconds:.1f} s, {len(students) / seconds:.2f} per "
          f"second ({at_once} at once)", flush=True)
    return all(results)


def servers_memory(names: list[str]) -> str:
    """The resident and proportional set sizes of every process the students run (their servers and what those
    started), from /proc (as root)."""
    uids = {pwd.getpwnam(name).pw_uid for name in names}
    rss = pss = processes = 0
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            if entry.stat().st_uid not in uids:
                continue
            sizes = dict(line.split(":") for line in (entry / "smaps_rollup").read_text().splitlines()[1:])
        except OSError:  # it ended meanwhile
            continue
        processes += 1
        rss, pss = rss + int(sizes["Rss"].split()[0]), pss + int(sizes["Pss"].split()[0])
    return (f"{processes} processes, {rss / 2**20:.2f} GiB resident ({rss / 2**10 / len(names):.0f} MB per student), "
            f"{pss / 2**20:.2f} GiB proportional ({pss / 2**10 / len(names):.0f} MB per student)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--course", type=Path, required=True)
    parser.add_argument("--prefix", required=True, help="the simulated students' names begin so")
    parser.add_argument("--chapter", default="01_tokens")
    parser.add_argument("--at-once", type=int, default=10)
    args = parser.parse_args()
    course = load(args.course)
    if os.geteuid() != 0:
        raise SystemExit("the load test reads the simulated students' passwords, which only root may: run it as root")
    hub = f"http://127.0.0.1:{course.server.hub_port}"
    try:
        requests.get(f"{hub}/hub/health", timeout=10).raise_for_status()
    except requests.RequestException:
        raise SystemExit(f"the course server does not answer at {hub}: start it with "
                         f"`make hub COURSE={args.course}`") from None
    try:
        passwords = dict(csv.reader((course.server.state / PASSWORDS).open()))
    except OSError as error:
        raise SystemExit(f"the simulated students' passwords cannot be read: {error}") from None
    students = [Student(hub, p.student) for p in course.students if p.student.startswith(args.prefix)]
    if not students:
        raise SystemExit(f"{args.course} names no student beginning with {args.prefix!r}")
    for student in students:  # a fetch puts the chapter there, and refuses to when an earlier run left it
        shutil.rmtree(Path(pwd.getpwnam(student.name).pw_dir) / args.chapter, ignore_errors=True)
    if not timed("logins", lambda student: student.log_in(passwords.get(student.name, "")), students, args.at_once):
        raise SystemExit(f"not every simulated student could log in: see the hub's log in {course.server.state}/logs")
    try:
        if timed("server starts", Student.start_server, students, args.at_once):
            print(f"students' servers, running: {servers_memory([student.name for student in students])}")
            timed("fetches", lambda student: student.fetch(course.course_id, args.chapter), students, args.at_once)
    finally:
        timed("server stops", Student.stop_server, students, args.at_once)


if __name__ == "__main__":
    main()
