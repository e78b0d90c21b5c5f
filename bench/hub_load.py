"""A bounded load test of the course server on loopback (`make hub` first, as root): N students log in at once
through the hub's login page (PAM), then fetch a chapter through nbgrader's exchange at once.

    .venv/bin/python -P bench/hub_load.py --course path/to/course.toml --prefix load --chapter 01_tokens [--at-once 10]

Logins are the hub's own work: each student's session asks for the login page (its XSRF cookie) and posts the
form, and a redirect counts as logged in; the redirect is not followed, so no JupyterLab starts (the hub does not
start fifty of them here). Fetches are `nbgrader fetch_assignment` run as each student in their home, as their
server's Assignments tab runs it: the exchange's work, without the servers. Prints logins and fetches per second.
"""
import argparse
import csv
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import requests

from grading.hub.accounts import PASSWORDS
from grading.hub.course import load


def log_in(hub: str, name: str, password: str) -> bool:
    with requests.Session() as session:
        session.get(f"{hub}/hub/login", timeout=60)
        answer = session.post(f"{hub}/hub/login", data={"username": name, "password": password,
                                                        "_xsrf": session.cookies.get("_xsrf", "")},
                              allow_redirects=False, timeout=60)
        return answer.status_code == 302


def fetch(name: str, chapter: str) -> bool:
    home = Path(f"~{name}").expanduser()
    done = subprocess.run([shutil.which("runuser"), "-u", name, "--", sys.executable, "-m", "nbgrader", "fetch_assignment", chapter],
                          cwd=home, env={"HOME": str(home), "PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin"},
                          capture_output=True, text=True)
    return done.returncode == 0


def rate(what: str, job, names: list[str], at_once: int) -> None:
    started = time.perf_counter()
    with ThreadPoolExecutor(at_once) as pool:
        results = list(pool.map(job, names))
    seconds = time.perf_counter() - started
    print(f"{what}: {sum(results)}/{len(names)} succeeded in {seconds:.1f} s, {len(names) / seconds:.2f} per second "
          f"({at_once} at once)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--course", type=Path, required=True)
    parser.add_argument("--prefix", required=True, help="the simulated students' names begin so")
    parser.add_argument("--chapter", default="01_tokens")
    parser.add_argument("--at-once", type=int, default=10)
    args = parser.parse_args()
    course = load(args.course)
    passwords = dict(csv.reader((course.server.state / PASSWORDS).open()))
    names = [p.student for p in course.students if p.student.startswith(args.prefix)]
    hub = f"http://127.0.0.1:{course.server.hub_port}"
    rate("logins", lambda name: log_in(hub, name, passwords[name]), names, args.at_once)
    rate("fetches", lambda name: fetch(name, args.chapter), names, args.at_once)


if __name__ == "__main__":
    main()
