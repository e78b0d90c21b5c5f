"""nbgrader's autograde step with trusted verdicts: the checker decides, nbgrader records.

:class:`TrustedVerdicts` takes the place of nbgrader's Execute preprocessor (see
``autograder/nbgrader_config.py``). No kernel runs the student's notebook: the trusted checker
(grading.instructor.verdicts.checker, in a fresh process of its own) evaluates the answers in the
sandboxed worker and returns a verdict per test cell, which this step writes into the test
cells' outputs - an error output for a failure - so that nbgrader's own SaveAutoGrades scores
them, and its feedback shows the messages. The outputs the student handed in are cleared:
the feedback shows only what grading computed. A first markdown cell, the grading report,
says how the answers loaded and whether anything was blocked.
"""
import html
import json
import os
import re
import subprocess
import sys
import traceback
from pathlib import Path

import nbformat
from nbformat.v4 import new_markdown_cell, new_output
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import Integer, Unicode

from grading.instructor.processes import in_scratch
from grading.instructor.verdicts.checker import SETUP_FAILED, role
from grading.instructor.verdicts.zygote import SHARED

REPORT_TAG = "grading-report"
SETUP_FAILURE = "setup failed: "  # begins the error of a notebook whose instructor's setup did not run
TAMPERING_KINDS = ("Blocked", "Forbidden")  # what the worker stopped, and forbidden calls it saw
MEMORY_LIMIT_MB = 4096  # address space of one answer worker


def error_output(ename: str, evalue: str) -> dict:
    # shaped like IPython's tracebacks (a rule, then the message), which feedback pages trim from the top
    return new_output("error", ename=ename, evalue=evalue, traceback=["-" * 75, f"{ename}: {evalue}"])


def report_notes(nb: nbformat.NotebookNode) -> list[str]:
    """The notes the grading report cell of an autograded notebook holds (for the harness's summary)."""
    for cell in nb.cells:
        if REPORT_TAG in cell.metadata.get("tags", []):
            return cell.metadata.get("grading", {}).get("notes", [])
    return []


class TrustedVerdicts(NbGraderPreprocessor):
    cell_timeout = Integer(120, help="Seconds the answers may run for one test cell").tag(config=True)
    notebook_timeout = Integer(0, help="Seconds the checker may take for the whole notebook (0: no limit): the test "
                               "cells it has not checked by then fail with that reason, those checked before keep "
                               "their verdicts").tag(config=True)
    # the grading command's default too, so that plain nbgrader and formgrader's Autograde grade as it does
    memory_limit_mb = Integer(MEMORY_LIMIT_MB,
                              help="Address space of the answer worker in MB (0: no cap)").tag(config=True)
    salt = Integer(0, help="Secret mixed into the hidden tests' seeds").tag(config=True)
    setup_failure_marker = Unicode("", help="A secret the grading command draws for each notebook: the error of a "
                                   "failed setup begins with it, so that no text of a student's (a grade_id in "
                                   "nbgrader's log, say) can pass for one").tag(config=True)
    verdicts_file = Unicode("", help="The checker's result for this notebook, computed by a grading worker on "
                            "another machine (grading.instructor.workers.queue): recorded instead of checking "
                            "here").tag(config=True)

    def preprocess(self, nb, resources):
        chapter = resources["nbgrader"]["assignment"]
        result = json.loads(Path(self.verdicts_file).read_text()) if self.verdicts_file else self.checked(nb, chapter)
        verdicts = result["verdicts"]
        notes = [f"{label} did not run: {why}" for label, why in result["load_failures"]]
        for cell in nb.cells:
            kind = role(cell)
            if kind == "markdown":
                continue
            cell.execution_count = None
            cell.outputs = []
            verdict = verdicts.get(cell.metadata.get("nbgrader", {}).get("grade_id")) if kind == "test" else None
            if verdict is None:
                continue
            if verdict["stdout"]:
                cell.outputs.append(new_output("stream", name="stdout", text=verdict["stdout"]))
            if not verdict["passed"]:
                cell.outputs.append(error_output(verdict["ename"], verdict["evalue"]))
                if any(kind in verdict["evalue"] for kind in TAMPERING_KINDS) or verdict["ename"] == "Forbidden":
                    notes.append(f"{cell.metadata['nbgrader']['grade_id']}: {verdict['evalue'].splitlines()[0]}")
        if result.get("not_checked"):  # its other cells' verdicts stand
            notes.append(f"the notebook's time limit of {self.notebook_timeout} s ran out: "
                         + ", ".join(result["not_checked"]) + " not checked (0 points)")
        if result.get("tampered"):  # earns nothing (the checker's libraries are its own), but the instructor is told
            notes.append("tampering: the answers replaced " + ", ".join(result["tampered"]) + " in their own worker")
        if not result["sandboxed"]:
            notes.append("graded without the OS sandbox (bubblewrap is not available)")
        nb.cells.insert(0, _report_cell(notes))
        return nb, resources


    def checked(self, nb, chapter: str) -> dict:
        """The trusted checker's result for this notebook (its verdicts, the answers that did not load, whether it
        was sandboxed); RuntimeError where it could not check."""
        with in_scratch("verdicts-") as folder:  # the student's notebook: never left behind (processes.py)
            notebook, out = Path(folder) / "submission.ipynb", Path(folder) / "verdicts.json"
            nbformat.write(nb, notebook)
            argv = [chapter, str(notebook), "--out", str(out), "--cell-time-limit", str(self.cell_timeout),
                    "--notebook-time-limit", str(self.notebook_timeout), "--memory-limit", str(self.memory_limit_mb)]
            returncode, stderr = run_checker(argv, {"GRADING_SALT": str(self.salt)}, Path(folder) / "checker.log")
            if returncode == SETUP_FAILED:  # the harness stops the whole run on these words
                raise RuntimeError(f"{self.setup_failure_marker} {SETUP_FAILURE}{stderr.strip()[-3000:]}")
            if returncode != 0 or not out.is_file():
                raise RuntimeError(f"the trusted checker failed:\n{stderr[-3000:]}")
            return json.loads(out.read_text())


def run_checker(argv: list[str], env: dict[str, str], log: Path) -> tuple[int, str]:
    """``python -m grading.instructor.verdicts.checker ARGV`` with ``env`` added, in a process of its own: (exit status, stderr).

    Where the system can fork, the process is a fork of this one, so a grading worker that
    imported PyTorch once (grading.instructor.workers.local) does not pay for it again per notebook; the
    checker is the instructor's code, and the student's answers still run only in the sandboxed
    worker it starts. Elsewhere, a fresh interpreter.
    """
    if not hasattr(os, "fork"):
        done = subprocess.run([sys.executable, "-m", "grading.instructor.verdicts.checker", *argv], capture_output=True,
                              text=True, env={**os.environ, **env})
        return done.returncode, done.stderr
    SHARED.prepare()  # the zygote that forks the student's answer worker, ready before the checker is forked
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the checker: whatever happens, this process ends here, without the parent's exit handlers
        code = 1
        try:
            sys.stdout = open(os.devnull, "w")
            sys.stderr = open(log, "w")
            os.environ.update(env)
            from grading.instructor.verdicts.checker import main

            code = main(argv)
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else 1
        except BaseException:  # noqa: BLE001 - reported through the log, as a crashed interpreter would
            traceback.print_exc()
        finally:
            sys.stderr.flush()
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), log.read_text() if log.is_file() else ""


def as_markdown_text(text: str) -> str:
    """``text`` (a student's error message, say) as a markdown cell shows it, on the feedback page too: as
    plain text on one line, never as HTML, a link, an image or a heading (markdown passes HTML through)."""
    # quotes stay as they are: markdown shows them as text, and an escaped one as "&#x27;"
    one_line = " ".join(html.escape(text, quote=False).split())
    return re.sub(r"([\\`*_{}\[\]()#+\-.!|~>])", r"\\\1", one_line)


def _report_cell(notes: list[str]) -> nbformat.NotebookNode:
    text = ("**Grading report.** Every test below was run by the course's checker on your answer cells alone "
            "(your own outputs are not shown). ")
    text += ("Notes:\n\n" + "\n".join(f"- {as_markdown_text(note)}" for note in notes)) if notes else "Nothing to report."
    cell = new_markdown_cell(text)
    cell.metadata["tags"] = [REPORT_TAG]
    cell.metadata["grading"] = {"notes": notes}
    return cell
