"""Formgrader works on what the grading command graded (autograder/nbgrader_config.py).

The course's configuration is loaded as formgrader's server extension loads it. Formgrader lists,
counts and autogrades the repaired copies the command graded (``<workdir>/intake``) while
nbgrader's commands keep reading the students' own files; its per-student Autograde button
(nbgrader's API, which the button calls) grades a copy again with the course's trusted checker and
the class's hidden-test salt, to the command's score; and a flagged hand-in's page says why
(grading.instructor.outputs.formgrader), while its feedback page does not; and the page loads MathJax
from the Jupyter server that serves it, not from a CDN.
"""
import html
import json
import re
import socket
import subprocess
import sys
import textwrap
import time
from urllib.error import HTTPError, URLError
from urllib.parse import urljoin
from urllib.request import urlopen

import nbformat
import pytest
from nbconvert.exporters import HTMLExporter
from nbgrader.apps import AutogradeApp
from nbgrader.apps.api import NbGraderAPI

from grading.instructor.course import CLASSWORK, NOTEBOOKS, intake_directory
from grading.instructor.example_class import build_submission, load_students
from grading.instructor.gradebook import database, flags
from grading.instructor.grade import grade
from tests.autograder.instructor.conftest import formgrader_api
from tests.autograder.instructor.intake.test_similar_pairs import HONEST

CHAPTER = "01_tokens"
RENAMED = "my work.ipynb"  # bob's file name: the command renames it, and flags it
FLAGGED = "Flagged by the grading command"


def submitted(coursedir) -> str:
    return coursedir.format_path(coursedir.submitted_directory, "alice", CHAPTER)


def test_formgrader_reads_the_copies_the_command_graded_and_nbgrader_the_students_files(monkeypatch, formgrader):
    monkeypatch.setenv("GRADING_SALT", "12345")
    monkeypatch.delenv("GRADING_WORKDIR", raising=False)
    extension = formgrader()
    assert submitted(extension.coursedir) == str(intake_directory(CLASSWORK) / "alice" / CHAPTER)
    command = AutogradeApp()
    command.initialize([])
    assert submitted(command.coursedir) == str(CLASSWORK / "submitted" / "alice" / CHAPTER)
    assert extension.config.TrustedVerdicts.salt == 12345  # the class's salt, also for formgrader's Autograde


# alice's and bob's build_vocab, the same and not the solution's (which the similarity check leaves out)
OWN_VOCAB = textwrap.indent(HONEST["cleo"][0].strip(), "    ")


@pytest.fixture(scope="module")
def graded(tmp_path_factory, grading_workers):
    """alice and bob hand in the same correct answers in nbgrader's layout (the solution's, but for a build_vocab of
    their own); bob's file has another name."""
    tmp = tmp_path_factory.mktemp("formgrader")
    correct = next(s for s in load_students(CHAPTER) if s.student_id == "correct")
    notebook = build_submission(correct, CHAPTER, tmp / "built") / f"{CHAPTER}.ipynb"
    answers = nbformat.read(notebook, as_version=4)
    [stub] = [c.source for c in nbformat.read(NOTEBOOKS / CHAPTER / f"{CHAPTER}.ipynb", as_version=4).cells
              if c.metadata.get("nbgrader", {}).get("grade_id") == "build_vocab"]
    for cell in answers.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == "build_vocab":
            cell.source = stub.replace("    # YOUR CODE HERE\n    raise NotImplementedError()", OWN_VOCAB)
    nbformat.write(answers, notebook)
    for student, name in (("alice", f"{CHAPTER}.ipynb"), ("bob", RENAMED)):
        (tmp / "inbox" / student / CHAPTER).mkdir(parents=True)
        (tmp / "inbox" / student / CHAPTER / name).write_text(notebook.read_text())
    workdir = tmp / "classwork"
    outcomes = {o.submission.student: o for o in grade(CHAPTER, tmp / "inbox", workdir, progress=False,
                                                       workers=grading_workers)}
    assert {s: o.score for s, o in outcomes.items()} == {"alice": 20, "bob": 20}
    return workdir


@pytest.fixture
def api(graded, formgrader) -> NbGraderAPI:
    """nbgrader's API as formgrader's buttons call it, on the command's work folder (GRADING_WORKDIR)."""
    return formgrader_api(formgrader(graded))


def test_formgrader_counts_every_submission_the_command_graded(api):
    assert api.get_submitted_students(CHAPTER) == {"alice", "bob"}
    assert api.get_assignment(CHAPTER)["num_submissions"] == 2
    assert {s["student"]: (s["autograded"], s["score"]) for s in api.get_submissions(CHAPTER)} == {
        "alice": (True, 20.0), "bob": (True, 20.0)}


def test_formgraders_autograde_button_grades_a_student_again_with_the_trusted_checker(api, graded):
    result = api.autograde(CHAPTER, "bob")
    assert result["success"], result.get("error") or result.get("log")
    assert api.get_submission(CHAPTER, "bob")["score"] == 20.0
    autograded = json.loads((graded / "autograded" / "bob" / CHAPTER / f"{CHAPTER}.ipynb").read_text())
    assert "Grading report" in "".join(autograded["cells"][0]["source"])  # TrustedVerdicts graded it


def render_as_formgrader(extension, graded, student: str) -> str:
    """The submission page formgrader's SubmissionHandler renders, with its resources."""
    exporter = HTMLExporter(config=extension.config)
    resources = {"assignment_id": CHAPTER, "notebook_id": CHAPTER, "submission_id": "x", "index": 0, "total": 2,
                 "base_url": "", "student": student, "last_name": None, "first_name": None, "notebook_path": ""}
    page, _ = exporter.from_filename(str(graded / "autograded" / student / CHAPTER / f"{CHAPTER}.ipynb"),
                                     resources=resources)
    return page


def test_a_flagged_submissions_page_says_why_and_its_feedback_does_not(graded, formgrader):
    extension = formgrader(graded)
    bob, alice = render_as_formgrader(extension, graded, "bob"), render_as_formgrader(extension, graded, "alice")
    assert FLAGGED in bob and f"renamed {RENAMED} to {CHAPTER}.ipynb" in html.unescape(bob)
    assert FLAGGED in alice and "renamed" not in alice
    assert "answers nearly the same as bob's" in html.unescape(alice)  # their own build_vocab is the same
    feedback = (graded / "feedback" / "bob" / CHAPTER / f"{CHAPTER}.html").read_text()
    assert FLAGGED not in feedback and "renamed" not in feedback
    flags.record(database.url(graded), CHAPTER, {"alice": (None, [])})  # as if alice's flags were gone
    assert FLAGGED not in render_as_formgrader(extension, graded, "alice")


def test_formgraders_page_typesets_math_with_mathjax_from_the_jupyter_server(graded, formgrader, tmp_path):
    page = render_as_formgrader(formgrader(graded), graded, "alice")
    [mathjax] = re.findall(r'<!-- Load mathjax -->\s*<script src="([^"]*)">', page)
    assert "cdnjs" not in mathjax
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    log = tmp_path / "server.log"
    server = subprocess.Popen([sys.executable, "-m", "jupyter_server", "--no-browser", "--allow-root", f"--port={port}",
                               "--ServerApp.port_retries=0", f"--ServerApp.root_dir={tmp_path}"],
                              cwd=tmp_path, stdout=log.open("w"), stderr=subprocess.STDOUT)
    try:
        # the page's address as formgrader serves it, and the script's address relative to it
        script = urljoin(f"http://127.0.0.1:{port}/formgrader/submissions/1a2b/", mathjax)
        deadline = time.monotonic() + 120
        while True:
            try:
                with urlopen(script, timeout=10) as reply:
                    assert reply.status == 200 and b"MathJax.Hub" in reply.read()
                break
            except HTTPError as error:  # the server answers, without the script
                pytest.fail(f"{script}: HTTP {error.code}")
            except (URLError, ConnectionError):
                assert server.poll() is None and time.monotonic() < deadline, f"no Jupyter server:\n{log.read_text()}"
                time.sleep(0.5)
    finally:
        server.terminate()
        server.wait(timeout=30)
