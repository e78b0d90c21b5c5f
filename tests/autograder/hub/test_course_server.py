"""The course on a real JupyterHub, end to end in a real browser (grading.hub).

The course server is started as `make hub` starts it (accounts from a course file with a Canvas roster, PostgreSQL,
Redis, two Celery grading workers, JupyterHub with formgrader as its service) on free loopback ports with its
files in a temporary folder, and everything is stopped and removed at the end. Two students and two assistants
log in through the hub's login page in headless Chromium. The students fetch chapter 01 in JupyterLab's
Assignments tab, write their answers (through their own server's contents API, as the editor would save them)
and submit there: rita the correct answers, walter first the correct ones and then wrong ones (the latest
counts). The instructor collects and grades on the workers (processes of the grader account, their sandboxes
included); one assistant grades rita's written answer in formgrader while the other opens walter's submission;
the feedback is released; each student fetches theirs in the Assignments tab and finds their own score in it,
and nobody else's. A student has no instructor menus, and
is refused formgrader, the exchange's inbound folder, another student's server and home, and the gradebook.

Skipped, with the reason, where a part cannot run here: not root (accounts, PAM), no PostgreSQL or Redis, no
Chromium, JupyterHub or its proxy not installed (`make hub-env`).
"""
import csv
import importlib.util
import json
import os
import pwd
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from grading.instructor.example_class import build_submission, load_students
from tests.services import connects, free_port

CHAPTER = "01_tokens"
STUDENTS = {"rightrita": ("Right, Rita", "correct"), "wrongwalter": ("Wrong, Walter", "pad-counted")}
ASSISTANTS = ["hubta-grace", "hubta-alan"]
INSTRUCTOR = "hubprof-ada"
COURSE_ID = "hubtest"
TIMEOUT_MS = 180_000  # a JupyterLab starting on a busy two-core machine


def _missing() -> str | None:
    """Why the course server cannot run here, or None."""
    from grading.hub.services import PROXY, postgres_programs
    from tests.book.test_browser import chromium_path

    if os.geteuid() != 0:
        return "the course server needs root (accounts, PAM logins)"
    if importlib.util.find_spec("jupyterhub") is None or not PROXY.is_file():
        return "JupyterHub or its proxy is not installed (run `make hub-env`)"
    if postgres_programs() is None or shutil.which("redis-server") is None:
        return "PostgreSQL or Redis is not installed (run `make services` as root)"
    chromium_path()  # skips, saying so, without Chromium
    tried = subprocess.run(["runuser", "-u", "nobody", "--", sys.executable, "-c", "import grading.hub"],
                           capture_output=True)
    if tried.returncode != 0:
        return (f"other accounts cannot run this environment's Python ({os.path.realpath(sys.executable)}): make "
                f".venv with a Python every account may enter, or open its folders (pyenv's /root: chmod o+x /root)")
    return None


@pytest.fixture(scope="module")
def server():
    """The course server, up; (course, passwords). Stopped, and its accounts removed, at the end."""
    if why := _missing():
        pytest.skip(f"course server test skipped: {why}")
    from grading.hub import accounts, course as course_file, services

    folder = Path(tempfile.mkdtemp(prefix="course-hub-"))  # not pytest's: its folder is closed to other accounts
    os.chmod(folder, 0o755)
    with (folder / "roster.csv").open("w", newline="") as handle:
        rows = csv.writer(handle)
        rows.writerow(["Student", "ID", "SIS User ID", "SIS Login ID", "Section"])
        for number, (name, _) in enumerate(STUDENTS.values(), 1):
            rows.writerow([name, 2000 + number, f"S{number}", f"s{number}@example.org", "A"])
    ports = [free_port() for _ in range(6)]
    (folder / "course.toml").write_text(
        f'course_id = "{COURSE_ID}"\ninstructors = ["{INSTRUCTOR}"]\nassistants = {json.dumps(ASSISTANTS)}\n'
        f'roster = "roster.csv"\n[server]\nstate = "{folder / "state"}"\nhub_port = {ports[0]}\n'
        f"postgres_port = {ports[1]}\nredis_port = {ports[2]}\nformgrader_port = {ports[3]}\nworkers = 2\n"
        f"proxy_api_port = {ports[4]}\nhub_api_port = {ports[5]}\n")
    course = course_file.load(folder / "course.toml")
    accounts.remove(course)  # what an interrupted run left
    try:
        passwords = accounts.make(course)
        services.up(course, say=lambda line: None)
        assert subprocess.run([sys.executable, "-m", "grading.hub", "release", CHAPTER, "--course",
                               course.source], capture_output=True).returncode == 0
        yield course, passwords
    finally:
        services.down(course, say=lambda line: None)
        accounts.remove(course)
        shutil.rmtree(folder, ignore_errors=True)
    still = [port for port in ports if connects(port)]
    assert not still, f"after `down` something still listens on the course server's ports {still}"


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    from tests.book.test_browser import CHROMIUM_FLAGS, chromium_path

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


class Person:
    """Somebody logged in through the hub's login page, in a browser context of their own."""

    def __init__(self, browser, course, passwords, name: str):
        self.name, self.hub = name, f"http://127.0.0.1:{course.server.hub_port}"
        self.context = browser.new_context()
        self.page = self.context.new_page()
        self.page.set_default_timeout(TIMEOUT_MS)
        self.page.goto(f"{self.hub}/hub/login")
        self.page.fill("#username_input", name)
        self.page.fill("#password_input", passwords[name])
        self.page.click("#login_submit")

    def lab(self) -> None:
        self.page.wait_for_url(f"**/user/{self.name}/lab**")

    def api(self, method: str, path: str, data=None):
        """The person's own Jupyter server's REST API, with the browser's session (and its XSRF token)."""
        xsrf = next(c["value"] for c in self.context.cookies() if c["name"] == "_xsrf")
        return self.page.request.fetch(f"{self.hub}/user/{self.name}/api/{path}", method=method, data=data,
                                       headers={"X-XSRFToken": xsrf})

    def assignments(self):
        """JupyterLab's Assignments tab (Nbgrader > Assignment List), freshly listed."""
        self.page.get_by_role("menuitem", name="Nbgrader").click()
        labels = [label.strip() for label in self.page.locator(".lm-Menu-content .lm-Menu-itemLabel").all_inner_texts()
                  if label.strip()]
        self.page.get_by_role("menuitem", name="Assignment List").click()
        self.page.locator("#refresh_assignments_list").first.click()
        return labels

    def click(self, section: str, button: str) -> None:
        row = self.page.locator(f"#{section} .list_item", has_text=CHAPTER).first
        row.get_by_role("button", name=button).click()


def _notebook(student: str, tmp: Path) -> dict:
    example = next(s for s in load_students(CHAPTER) if s.student_id == student)
    return json.loads((build_submission(example, CHAPTER, tmp / student) / f"{CHAPTER}.ipynb").read_text())


def _hand_ins(course, student: str) -> list[Path]:
    return list((course.exchange / COURSE_ID / "inbound").glob(f"{student}+{CHAPTER}+*"))


def _wait_for(done, what: str) -> None:
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while not done():
        assert time.monotonic() < deadline, f"no {what} after {TIMEOUT_MS / 1000:.0f} s"
        time.sleep(0.5)


def _descendants(pid: int) -> dict[int, set[str]]:
    """Every process started under ``pid`` (not ``pid`` itself): the accounts of its real, effective, saved and
    file-system user ids, from /proc."""
    parents, accounts = {}, {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            ids = re.search(r"^Uid:\s+(.*)$", (entry / "status").read_text(), re.M)[1].split()
        except OSError:  # it has ended meanwhile
            continue
        parents[int(entry.name)] = parent
        accounts[int(entry.name)] = {pwd.getpwuid(int(uid)).pw_name for uid in ids}
    found, frontier = {}, [pid]
    while frontier:
        children = [child for child, parent in parents.items() if parent in frontier]
        found.update({child: accounts[child] for child in children})
        frontier = children
    return found


def _environment(pid: int) -> dict[str, str]:
    entries = Path(f"/proc/{pid}/environ").read_bytes().decode(errors="replace").split("\0")
    return dict(entry.partition("=")[::2] for entry in entries if entry)


def _command(pid: int) -> str:
    """``pid``'s command line, or "" if it has ended."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _as(account: str, *command: str) -> subprocess.CompletedProcess:
    return subprocess.run(["runuser", "-u", account, "--", *command], capture_output=True, text=True)


def test_students_fetch_submit_and_get_their_own_feedback_through_the_hub(server, browser, tmp_path):
    course, passwords = server
    from grading.hub import loop
    from nbgrader.api import Gradebook

    from grading.instructor.gradebook import database

    students = {name: Person(browser, course, passwords, name) for name in STUDENTS}
    assistants = [Person(browser, course, passwords, name) for name in ASSISTANTS]
    for name, student in students.items():
        student.lab()
        menu = student.assignments()
        assert menu == ["Assignment List"], f"{name}'s Nbgrader menu holds instructor items: {menu}"
        student.click("released_assignments_list", "Fetch")
        student.page.locator("#fetched_assignments_list .list_item", has_text=CHAPTER).first.wait_for()
    path = f"contents/{CHAPTER}/{CHAPTER}.ipynb"
    for name, student in students.items():
        handed = ["correct", STUDENTS[name][1]] if name == "wrongwalter" else ["correct"]
        for count, example in enumerate(handed, 1):
            saved = student.api("PUT", path, {"type": "notebook", "format": "json",
                                              "content": _notebook(example, tmp_path)})
            assert saved.ok, f"{name} could not save the notebook: {saved.status} {saved.text()[:300]}"
            student.click("fetched_assignments_list", "Submit")
            _wait_for(lambda: len(_hand_ins(course, name)) == count, f"{name}'s hand-in number {count} in the exchange")

    assert loop.collect(course, CHAPTER) == 0, "collecting and grading on the workers failed"
    with Gradebook(database.url(course.workdir)) as gradebook:
        scores = {name: gradebook.find_submission(CHAPTER, name).score for name in STUDENTS}
        rita = gradebook.find_submission_notebook(CHAPTER, CHAPTER, "rightrita")
        written = [(g.cell.name, g.max_score) for g in rita.grades if g.cell.cell_type == "markdown"]
        submission_ids = {name: gradebook.find_submission_notebook(CHAPTER, CHAPTER, name).id for name in STUDENTS}
    assert scores["rightrita"] == 20 and scores["wrongwalter"] < 20, f"autograded scores: {scores}"
    # graded by workers of the grader account, the sandboxes they started included (runuser, which started them as
    # that account, is root's)
    workers = _descendants(int((course.server.state / "run" / "workers.pid").read_text()))
    accounts = set().union(*workers.values())
    assert len(workers) > course.server.workers and accounts == {course.grader_account}, \
        f"the grading workers' processes run as {accounts}, not only as {course.grader_account}"
    # and they grade in the sandbox or not at all: never as the grader account, which reads the class's work folder
    commands = {pid: _command(pid) for pid in workers}
    celery = [pid for pid, command in commands.items() if "grading.hub.worker" in command]
    settings = {_environment(pid).get("GRADING_SANDBOX") for pid in celery}
    assert celery and settings == {"required"}, f"the workers' GRADING_SANDBOX: {settings}"
    assert any(Path(command.split(" ")[0]).name == "bwrap" for command in commands.values()), \
        f"no sandbox among the workers' processes: {sorted(set(commands.values()))}"

    grace, alan = assistants
    for assistant in assistants:
        assistant.lab()
    formgrader = f"{grace.hub}/services/{COURSE_ID}/formgrader"
    grace.page.goto(f"{formgrader}/submissions/{submission_ids['rightrita']}/?index=0")
    alan.page.goto(f"{formgrader}/submissions/{submission_ids['wrongwalter']}/?index=0")
    alan.page.locator("a.name-shown", has_text="wrongwalter").first.wait_for(state="attached")
    score = grace.page.locator(f'input.score[id="{written[0][0]}"]')
    score.fill(str(written[0][1]))
    score.press("Tab")
    grace.page.locator(".score-saved:visible").first.wait_for()  # formgrader's tick once the gradebook has it
    with Gradebook(database.url(course.workdir)) as gradebook:
        given = gradebook.find_grade(written[0][0], CHAPTER, CHAPTER, "rightrita").manual_score
    assert given == written[0][1], "the written answer's grade given in formgrader is not in the gradebook"

    assert loop.release_feedback(course, CHAPTER) == 0, "releasing the feedback failed"
    expected = {"rightrita": scores["rightrita"] + written[0][1], "wrongwalter": scores["wrongwalter"]}
    for name, student in students.items():
        student.assignments()
        student.click("submitted_assignments_list", "Fetch Feedback")
        student.page.locator("#submitted_assignments_list", has_text="View feedback").first.wait_for()
        folders = student.api("GET", f"contents/{CHAPTER}/feedback").json()["content"]
        latest = max(folder["name"] for folder in folders)
        page = student.api("GET", f"contents/{CHAPTER}/feedback/{latest}/{CHAPTER}.html?format=text").json()
        text = page["content"]
        other = next(other for other in STUDENTS if other != name)
        total = re.search(r"Score: ([\d.]+) / ([\d.]+)", text)  # the page's first score is the notebook's
        assert total and float(total[1]) == expected[name], f"{name}'s feedback gives {total and total[0]}, " \
                                                             f"the gradebook {expected[name]}"
        assert other not in text, f"{name}'s feedback page names {other}"

    rita = students["rightrita"]
    refused = rita.page.goto(formgrader)
    assert refused.status == 403, f"a student opened formgrader: {refused.status}"
    refused = rita.page.goto(f"{rita.hub}/user/wrongwalter/lab")
    assert refused.status == 403 or "/user/rightrita/" in rita.page.url, f"a student reached another's server"
    walter_home = pwd.getpwnam("wrongwalter").pw_dir
    for what in (["ls", str(course.exchange / COURSE_ID / "inbound")], ["ls", walter_home],
                 ["cat", str(course.workdir / database.FILE)]):
        done = _as("rightrita", *what)
        assert done.returncode != 0 and "Permission denied" in done.stderr, f"a student could run {what}"
