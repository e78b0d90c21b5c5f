"""The course's Unix accounts, groups and nbgrader configuration, made from its configuration file.

Every person named (grading.hub.course) gets an account with a home of its own that nobody else may read (0700),
in the course's group; instructors and assistants also in the formgrade group, which formgrader's hub service
lets in. A new account gets a random password, written to ``<state>/passwords.csv`` (readable by root only)
for the instructor to hand out; an existing account keeps its password.

nbgrader's configuration per account (``~/.jupyter/``): the course id and the exchange, and for a student
JupyterLab without the instructors' parts: nbgrader's formgrader, course list and create-assignment extensions
disabled (JupyterLab's ``labconfig/page_config.json`` and the server's ``jpserver_extensions``, at the user's
level, as ``jupyter labextension disable --level=user`` writes them); the Assignments tab and Validate stay.

The exchange follows nbgrader's permissions: its root open to all (0777), the course's folder the grader
account's; ``nbgrader release_assignment`` makes ``inbound`` writable but not readable by students, so nobody
lists another's submissions. The class's work folder belongs to the grader account alone (0700): the
gradebook's address, the hidden-test salt, the collected hand-ins and the feedback before release.
"""
import csv
import grp
import json
import os
import pwd
import secrets
import subprocess
from pathlib import Path

from grading.hub.course import Course

STUDENT_LAB_EXTENSIONS_OFF = ["@jupyter/nbgrader:formgrader", "@jupyter/nbgrader:course-list",
                              "@jupyter/nbgrader:create-assignment"]
STUDENT_SERVER_EXTENSIONS_OFF = ["nbgrader.server_extensions.formgrader", "nbgrader.server_extensions.course_list"]
PASSWORDS = "passwords.csv"


class AccountError(RuntimeError):
    """An account or group could not be made; the message says which and why."""


def _run(*command: str) -> None:
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise AccountError(f"`{' '.join(command)}` failed: {done.stderr.strip()}")


def _group(name: str) -> None:
    try:
        grp.getgrnam(name)
    except KeyError:
        _run("groupadd", name)


def _account(name: str, groups: list[str], passwords: dict[str, str]) -> pwd.struct_passwd:
    try:
        pwd.getpwnam(name)
    except KeyError:
        _run("useradd", "--create-home", "--shell", "/bin/bash", "--user-group", name)
        passwords[name] = secrets.token_urlsafe(12)
        subprocess.run(["chpasswd"], input=f"{name}:{passwords[name]}\n", text=True, check=True)
    _run("usermod", "--append", "--groups", ",".join(groups), name)
    account = pwd.getpwnam(name)
    os.chmod(account.pw_dir, 0o700)
    return account


def _owned(path: Path, account: pwd.struct_passwd, text: str) -> None:
    """Write ``text`` to ``path`` in ``account``'s home, as theirs (the folders too)."""
    home = Path(account.pw_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    for part in [path, *path.parents]:
        if part == home:
            break
        os.chown(part, account.pw_uid, account.pw_gid)


def nbgrader_settings(course: Course) -> str:
    return (f"# Made by `make hub` from {course.source}\nc = get_config()  # noqa: F821\n"
            f"c.CourseDirectory.course_id = {course.course_id!r}\nc.Exchange.root = {str(course.exchange)!r}\n")


def _configure_student(account: pwd.struct_passwd, course: Course) -> None:
    jupyter = Path(account.pw_dir) / ".jupyter"
    _owned(jupyter / "nbgrader_config.py", account, nbgrader_settings(course))
    _owned(jupyter / "labconfig" / "page_config.json", account,
           json.dumps({"disabledExtensions": {name: True for name in STUDENT_LAB_EXTENSIONS_OFF}}, indent=1))
    _owned(jupyter / "jupyter_server_config.json", account, json.dumps(
        {"ServerApp": {"jpserver_extensions": {name: False for name in STUDENT_SERVER_EXTENSIONS_OFF}}}, indent=1))


def make(course: Course) -> dict[str, str]:
    """Make (or bring up to date) every account, group and folder of ``course``; the new accounts' passwords."""
    for group in (course.course_group, course.formgrade_group):
        _group(group)
    passwords: dict[str, str] = {}
    grader = _account(course.grader_account, [course.course_group], {})  # logs in only through the hub's service
    _run("usermod", "--lock", course.grader_account)
    _owned(Path(grader.pw_dir) / ".jupyter" / "nbgrader_config.py", grader, nbgrader_settings(course))
    for name in course.graders:
        _account(name, [course.course_group, course.formgrade_group], passwords)
    for person in course.students:
        _configure_student(_account(person.student, [course.course_group], passwords), course)
    state = course.server.state
    state.mkdir(parents=True, exist_ok=True)
    os.chmod(state, 0o755)
    closed = [str(folder) for folder in state.parents if not os.stat(folder).st_mode & 0o001]
    if closed:
        raise AccountError(f"the course's accounts cannot reach its folder {state} (the exchange is there): "
                           f"{', '.join(closed)} is closed to them; choose another [server] state in {course.source}")
    course.exchange.mkdir(exist_ok=True)
    os.chmod(course.exchange, 0o777)  # as nbgrader makes its root (nbgrader.exchange.default.exchange)
    for folder, mode in ((course.exchange / course.course_id, 0o755), (course.workdir, 0o700)):
        folder.mkdir(exist_ok=True)
        os.chown(folder, grader.pw_uid, grader.pw_gid)
        os.chmod(folder, mode)
    if passwords:
        _keep_passwords(state / PASSWORDS, passwords)
    return passwords


def _keep_passwords(path: Path, passwords: dict[str, str]) -> None:
    path.touch(mode=0o600)
    os.chmod(path, 0o600)
    with path.open("a", newline="") as handle:
        csv.writer(handle).writerows(sorted(passwords.items()))


def remove(course: Course) -> None:
    """Remove the course's accounts (their homes too) and groups: what the tests made, never a real class's."""
    for name in [course.grader_account, *course.people]:
        subprocess.run(["userdel", "--remove", name], capture_output=True)
    for group in (course.course_group, course.formgrade_group):
        subprocess.run(["groupdel", group], capture_output=True)
