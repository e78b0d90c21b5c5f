"""The instructor's loop on the course server, run as the grader account (the work folder's owner).

release: ``nbgrader release_assignment`` puts a chapter's student notebook in the exchange (the Assignments tab
lists it); collect: ``nbgrader collect`` takes each student's latest hand-in, the course's grading command
(grading.instructor.grade) grades them on the grading workers into the PostgreSQL gradebook, and
``nbgrader release_feedback`` puts each student's feedback page in the exchange, where only that student's
Assignments tab finds it (by the secret of their own submission).

The grading command grades repaired copies of the hand-ins (grading.instructor.course.intake_directory), which
do not carry nbgrader's ``submission_secret.txt``; the feedback folder gets the secret of the hand-in it was made
from, as nbgrader's own autograde and generate_feedback carry it along.
"""
import os
import shutil
import subprocess
import sys

from grading.hub.course import Course
from grading.hub.services import QUEUE_URL, grader
from grading.instructor.course import REPO

SECRET = "submission_secret.txt"


def as_grader(course: Course, *command: str) -> int:
    """Run ``command`` (this Python's module or program) as the grader account, on the class; its exit status."""
    account = grader(course)
    # the broker's URL carries Redis's password: in the environment, which only its owner reads, not on the
    # command line, which `ps` shows every student
    environment = {**os.environ, "GRADING_QUEUE": (course.workdir / QUEUE_URL).read_text().strip(),
                   "HOME": account.pw_dir, "USER": account.pw_name, "GRADING_WORKDIR": str(course.workdir),
                   "GRADING_COURSE_ID": course.course_id,
                   "PATH": os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "")])}
    return subprocess.run(["runuser", "-u", account.pw_name, "--", sys.executable, *command], cwd=REPO,
                          env=environment).returncode


def release(course: Course, chapter: str) -> int:
    return as_grader(course, "-m", "nbgrader", "release_assignment", chapter, "--force")


def carry_secrets(course: Course, chapter: str) -> list[str]:
    """Copy each collected hand-in's secret beside its feedback page; the students who have a page."""
    students = []
    for feedback in sorted((course.workdir / "feedback").glob(f"*/{chapter}")):
        secret = course.workdir / "submitted" / feedback.parent.name / chapter / SECRET
        if secret.is_file():
            shutil.copy(secret, feedback / SECRET)
            shutil.chown(feedback / SECRET, course.grader_account, course.grader_account)
            students.append(feedback.parent.name)
    return students


def _grade(course: Course, chapter: str) -> int:
    """The grading command on what nbgrader collected: new hand-ins graded on the workers, feedback pages rebuilt
    for everybody whose grades changed (a written answer graded in formgrader, say)."""
    return as_grader(course, "-m", "grading.instructor.grade", chapter, str(course.workdir / "submitted"),
                     "--workdir", str(course.workdir), "--lms", "nbgrader")


def collect(course: Course, chapter: str) -> int:
    """Each student's latest hand-in from the exchange, graded."""
    return as_grader(course, "-m", "nbgrader", "collect", chapter, "--update") or _grade(course, chapter)


def release_feedback(course: Course, chapter: str) -> int:
    """Feedback pages brought up to date with the gradebook, and into the exchange for the students to fetch."""
    if status := _grade(course, chapter):
        return status
    carry_secrets(course, chapter)
    return as_grader(course, "-m", "nbgrader", "release_feedback", chapter)
