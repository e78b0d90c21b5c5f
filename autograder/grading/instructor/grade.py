"""Grade a whole class with one command: import, autograde in parallel, feedback, grades CSV, summary.

    python -m grading.instructor.grade 01_tokens path/to/submissions [--jobs 2] [--force]

nbgrader does the grading (``nbgrader autograde --student S`` per student, several at once:
nbgrader itself grades one notebook at a time), with the trusted checker in place of its
kernel (grading.instructor.verdicts.preprocessor): the student's answers run only in a sandboxed worker,
and every verdict is computed outside it. Students already graded are skipped unless
``--force``, so an interrupted run resumes. A submission that cannot be graded (empty,
not a notebook, another chapter's notebook, over the time limit) scores 0 and gets a
feedback page that says why; every other student is graded normally. Answers are screened
before they run (grading.student.screen). What the intake and the screens flag is kept
(grading.instructor.gradebook.flags), and the chapter's grades, with a status per student of the class,
go to ``<workdir>/<chapter>/`` (grading.instructor.outputs.export). If the instructor's own setup cell
fails, the run stops with "setup failed": nobody is given 0 for it.
"""
import argparse
import hashlib
import html
import os
import secrets
import sys
import zipfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import nbformat
from nbgrader.api import MissingEntry
from sqlalchemy.exc import SQLAlchemyError
from tqdm import tqdm

from grading.instructor.gradebook import database, deadlines, flags, roster
from grading.instructor.outputs import export, outdated
from grading.instructor.course import (
    CLASSWORK,
    NOTEBOOKS,
    REPO,
    SOLUTIONS,
    GradingError,
    intake_directory,
    workdir_options,
)
from grading.instructor.verdicts.preprocessor import MEMORY_LIMIT_MB, report_notes
from grading.instructor.verdicts.salt import class_salt
from grading.instructor.intake import similarity
from grading.instructor.intake.lms import LAYOUTS, TIMESTAMP
from grading.instructor.intake.submissions import Submission, collect, prepare, writes_into
from grading.instructor.workers.abc import Workers, WorkerTimeout
from grading.instructor.workers.local import GradingWorkers

NOTEBOOK_TIME_LIMIT = 600  # seconds for one whole notebook; c.TrustedVerdicts.cell_timeout limits each test cell
RECORDING_S = 60  # seconds past the notebook's limit before its grading process is killed (Limits.recording_s)


@dataclass
class Limits:
    notebook_s: int = NOTEBOOK_TIME_LIMIT
    cell_s: int | None = None  # None: c.TrustedVerdicts.cell_timeout from nbgrader_config.py
    memory_mb: int = MEMORY_LIMIT_MB  # 0: no cap
    # at notebook_s the checker gives the tests it has not checked 0 and keeps the others' verdicts; then nbgrader has
    # recording_s to record them (and the answers to finish loading, which the checker never cuts short) before the
    # grading process is killed and the whole notebook scores 0
    recording_s: int = RECORDING_S


@dataclass
class Outcome:
    submission: Submission
    status: str  # what this run did: "graded", "skipped" (graded before, unchanged), "failed"
    row: export.Row | None = None  # the student's row of the chapter's grades

    @property
    def score(self) -> float:
        """The points before any late penalty (0 for a hand-in that could not be graded)."""
        return self.row.raw if self.row and self.row.raw is not None else 0.0

    @property
    def max_score(self) -> float:
        return self.row.max_score if self.row else 0.0


def _fingerprint(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _marker(workdir: Path, chapter: str, student: str) -> Path:
    return workdir / "autograded" / student / chapter / ".graded-from"


def _import(submission: Submission, chapter: str, workdir: Path, force: bool) -> bool:
    """Write the repaired notebook and its time into nbgrader's submitted directory; False when graded before as is."""
    notebook = prepare(submission, chapter)
    if notebook is None:
        return False
    text = nbformat.writes(notebook)
    folder = intake_directory(workdir) / submission.student / chapter
    folder.mkdir(parents=True, exist_ok=True)
    retimed = _write_timestamp(folder / TIMESTAMP, submission)
    marker = _marker(workdir, chapter, submission.student)
    if not force and not retimed and marker.is_file() and marker.read_text() == _fingerprint(text):
        return False
    (folder / f"{chapter}.ipynb").write_text(text)
    return True


def _write_timestamp(path: Path, submission: Submission) -> bool:
    """nbgrader's timestamp.txt (UTC), from which it computes lateness, or none; whether it changed."""
    text = f"{submission.submitted:%Y-%m-%d %H:%M:%S.%f} UTC" if submission.submitted else None
    before = path.read_text() if path.is_file() else None
    if text is None:
        path.unlink(missing_ok=True)
    else:
        path.write_text(text)
    return text != before


def _autograde(chapter: str, student: str, workdir: Path, limits: Limits, workers: Workers, salt: int) -> str | None:
    """Autograde one student through the workers (grading.instructor.workers); the reason it failed, or None."""
    setup_marker = secrets.token_hex(16)  # a failed setup is where the log holds this secret, never a student's text
    checker = {"memory_limit_mb": limits.memory_mb, "salt": salt, "setup_failure_marker": setup_marker,
               "notebook_timeout": limits.notebook_s}
    if limits.cell_s:
        checker["cell_timeout"] = limits.cell_s
    submitted = intake_directory(workdir) / student / chapter / f"{chapter}.ipynb"
    try:
        ok, log = workers.autograde(chapter, student, submitted, checker, workdir_options(workdir),
                                    limits.notebook_s + limits.recording_s)
    except WorkerTimeout:
        return f"the notebook ran longer than the time limit of {limits.notebook_s} s (and {limits.recording_s} s more)"
    if not ok and setup_marker in log:
        why = next(line for line in log.splitlines() if setup_marker in line)
        why = why[why.index(setup_marker) + len(setup_marker):].strip()
        raise GradingError(f"grading stopped, {why} (while grading {student}).\n"
                           "Nobody was given a score for it. The instructor's notebook must run here "
                           f"(.venv/bin/pytest --nbval-lax solutions/{chapter}); fix that and run the command again.")
    if not ok:
        errors = [line for line in log.splitlines() if "ERROR" in line and "Traceback" not in line]
        return "nbgrader could not grade it: " + (errors[0].split("]", 1)[-1].strip() if errors else "unknown error")
    _marker(workdir, chapter, student).write_text(_fingerprint(submitted.read_text()))
    return None


def _report_notes(workdir: Path, chapter: str, student: str) -> list[str]:
    """What the checker's grading report says (answers that did not load, blocked or forbidden calls)."""
    return report_notes(nbformat.read(workdir / "autograded" / student / chapter / f"{chapter}.ipynb", as_version=4))


def _write_failure_feedback(workdir: Path, chapter: str, student: str, reason: str) -> None:
    page = workdir / "feedback" / student / chapter / f"{chapter}.html"
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text(f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{chapter}: {html.escape(student)}</title>"
                    f"</head><body><h1>{chapter}: not graded</h1><p>Your submission could not be graded: "
                    f"{html.escape(reason)}.</p><p>Score: 0. Ask your instructor how to hand in a corrected "
                    f"notebook.</p></body></html>\n")


def _record_zero(workdir: Path, chapter: str, student: str) -> None:
    """Give the student a submission worth 0 autograded points, so the CSV lists them with 0.

    A submission graded before (an earlier hand-in), or partly saved by an nbgrader run that
    then failed, must not keep its automatic scores.
    """
    with database.opened(database.url(workdir)) as gradebook:
        gradebook.update_or_create_student(student)
        try:
            submission = gradebook.find_submission(chapter, student)
        except MissingEntry:
            gradebook.add_submission(chapter, student)
            return
        for notebook in submission.notebooks:
            for grade in notebook.grades:
                if grade.auto_score is not None:
                    grade.auto_score = 0
        gradebook.db.commit()


def _rows(workdir: Path, chapter: str) -> dict[str, export.Row]:
    with database.opened(database.url(workdir)) as gradebook:
        return {row.student_id: row for row in export.rows(gradebook, chapter)}


def grade(chapter: str, folder: Path, workdir: Path = CLASSWORK, jobs: int = 2, force: bool = False,
          id_pattern: str | None = None, limits: Limits = Limits(), progress: bool = True,
          layout: str = "auto", workers: Workers | None = None,
          on_graded: Callable[[str], None] | None = None) -> list[Outcome]:
    """Grade every submission of ``chapter`` found in ``folder``; results go to ``workdir``.

    ``workers`` lends processes that outlive this call, on this machine or behind a queue
    (grading.instructor.workers), else ``jobs`` local ones are started and stopped here;
    ``on_graded(student)`` is called as each notebook is done (beside or instead of the progress bar)."""
    submissions = collect(folder, chapter, layout, id_pattern)
    if not submissions:
        raise GradingError(f"nothing to grade: {folder} holds no file or folder; give the folder or zip file of "
                           "the hand-ins as the LMS or nbgrader collect delivers them")
    with ExitStack() as stack:
        if workers is None:
            workers = stack.enter_context(GradingWorkers(jobs))
        return _grade(chapter, submissions, workdir, force, limits, progress, workers,
                      on_graded or (lambda student: None))


def _grade(chapter: str, submissions: list[Submission], workdir: Path, force: bool, limits: Limits,
           progress: bool, workers: Workers, on_graded: Callable[[str], None]) -> list[Outcome]:
    options = workdir_options(workdir)
    with ThreadPoolExecutor(max_workers=workers.in_flight) as pool:
        workers.check("generate_assignment", chapter, "--force",
                      f"--CourseDirectory.release_directory={workdir / 'release'}", *options)
        # Canvas's download names carry each person's Canvas user id, which its grade import matches by
        roster.record_canvas_ids(database.url(workdir), {s.student: s.hand_ins[0].identity for s in submissions
                                                         if s.layout == "canvas" and s.hand_ins[0].identity})
        to_grade = [s for s in submissions if _import(s, chapter, workdir, force)]
        submissions = [s for s in submissions if not s.absent]  # handed in other chapters only: not in this run
        outcomes = {s.student: Outcome(s, "skipped") for s in submissions}
        salt = class_salt(workdir)
        reasons = pool.map(lambda s: _autograde(chapter, s.student, workdir, limits, workers, salt), to_grade)
        try:
            for submission, reason in tqdm(zip(to_grade, reasons), total=len(to_grade), desc=f"grading {chapter}",
                                           unit="notebook", disable=not progress):
                outcomes[submission.student].status = "graded"
                submission.fatal = reason
                on_graded(submission.student)
        except GradingError:  # the setup failed: grading the others would fail the same way
            pool.shutdown(cancel_futures=True)
            raise
        similar = similarity.class_report([intake_directory(workdir)], chapter,
                                          nbformat.read(NOTEBOOKS / chapter / f"{chapter}.ipynb", as_version=4),
                                          nbformat.read(SOLUTIONS / chapter / f"{chapter}.ipynb", as_version=4),
                                          flags.chapter_folder(workdir, chapter))
        for submission in submissions:
            if not submission.fatal and (workdir / "autograded" / submission.student / chapter).is_dir():
                submission.notes += _report_notes(workdir, chapter, submission.student)
                submission.notes += similar.get(submission.student, [])
            if submission.fatal:
                outcomes[submission.student].status = "failed"
                _record_zero(workdir, chapter, submission.student)
                _write_failure_feedback(workdir, chapter, submission.student, submission.fatal)
        flags.record(database.url(workdir), chapter, {s.student: (s.fatal, s.notes) for s in submissions})
        # feedback rebuilt from the gradebook for everybody whose grades changed since their page was written
        # (graded now, or graded by hand, regraded or unflagged since) and everybody whose page was deleted,
        # whichever folder they handed in from
        rows = _rows(workdir, chapter)
        graded = {s.student for s in to_grade}
        with_feedback = [student for student, row in rows.items()
                         if row.state not in (export.FAILED, export.NOT_HANDED_IN)
                         and (workdir / "autograded" / student / chapter).is_dir()]
        deleted = {student for student in with_feedback
                   if not (workdir / "feedback" / student / chapter / f"{chapter}.html").is_file()}
        stale = set(outdated.outdated(database.url(workdir), chapter, with_feedback)) | (graded & set(with_feedback))
        stale |= deleted
        list(pool.map(lambda student: workers.check("generate_feedback", chapter, f"--student={student}", "--force",
                                                    *options), sorted(stale)))
        outdated.record(database.url(workdir), chapter, sorted(stale))
        workers.check("export", f"--assignment={chapter}", *options)
    for student, outcome in outcomes.items():
        outcome.row = rows.get(student)
    return [outcomes[s.student] for s in submissions]


def _pending(outcome: Outcome) -> list[str]:
    """What the score does not count yet."""
    row, said = outcome.row, []
    if row and row.awaiting:
        said.append(f"{row.awaiting:g} points of written answers awaiting manual grading (counted as 0)")
    if row and row.to_review:
        said.append(f"{row.to_review:g} points graded by hand whose answers changed since (grade kept, to review)")
    return said


def summary(outcomes: list[Outcome]) -> str:
    """A line per student: what this run did, and the status and score of the grades CSV (after any penalty)."""
    lines = [f"{'student':<20} {'this run':<8} {'score':>11}  status; notes"]
    for o in outcomes:
        status = o.row.status if o.row else export.NOT_GRADED
        score = f"{o.row.score:5.1f}" if o.row and o.row.score is not None else f"{'-':>5}"
        reason = [o.submission.fatal] if o.submission.fatal and o.submission.fatal not in status else []
        notes = "; ".join([status] + _pending(o) + reason + o.submission.notes)
        lines.append(f"{o.submission.student:<20} {o.status:<8} {score} / {o.max_score:<4.1f}  {notes}")
    count = {status: sum(o.status == status for o in outcomes) for status in ("graded", "skipped", "failed")}
    flagged = sum(o.submission.flagged for o in outcomes)
    awaiting = sum(bool(o.row and o.row.awaiting) for o in outcomes)
    to_review = sum(bool(o.row and o.row.to_review) for o in outcomes)
    lines.append(f"\n{count['graded']} graded, {count['skipped']} unchanged since last time, {count['failed']} failed, "
                 f"{flagged} flagged, {awaiting} awaiting manual grading, {to_review} to review")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("chapter", help="the assignment, e.g. 01_tokens")
    parser.add_argument("folder", type=Path, help="the submissions: a folder or a zip file, as nbgrader or an LMS "
                                                  "delivers them (read, never written)")
    parser.add_argument("--workdir", type=Path, default=CLASSWORK, help="where grades and feedback go (classwork/)")
    parser.add_argument("--jobs", type=int, default=2, help="notebooks graded at once (default 2)")
    parser.add_argument("--force", action="store_true", help="grade again students graded before")
    parser.add_argument("--queue", metavar="BROKER", default=os.environ.get("GRADING_QUEUE"),
                        help="compute the verdicts on grading workers on other machines through this Redis broker, "
                             "e.g. redis://grading-host:6379/0 (grading.instructor.workers.queue); recorded here "
                             "(default: GRADING_QUEUE, where a password stays out of the command line)")
    parser.add_argument("--lms", choices=LAYOUTS, default="auto",
                        help="the layout and file names of FOLDER (default: recognised from the names)")
    parser.add_argument("--id-pattern", help="regular expression with a 'student' group (optionally 'identity', "
                                             "'late', 'timestamp') searched in top-level names; replaces the layout's")
    parser.add_argument("--due", help="this chapter's due date, e.g. 2026-10-05T23:59 (local time unless it has an "
                                      "offset); kept in the gradebook")
    parser.add_argument("--late-penalty", help="what a late notebook loses: none, zero, P%%/day or P%%/hour of its "
                                               "points (kept in the gradebook)")
    parser.add_argument("--gradebook", help="the class's database from now on, e.g. postgresql://grader@db/course "
                                            "for several assistants or machines (default: SQLite in the work folder; "
                                            "kept in <workdir>/gradebook.url)")
    parser.add_argument("--roster", type=Path, help="the LMS's grade export (Canvas: Grades > Export; Moodle: Grades > "
                                                    "Export > Plain text file): names, e-mail and the ids the LMS "
                                                    "files are keyed by, kept in the gradebook")
    parser.add_argument("--time-limit", type=int, default=NOTEBOOK_TIME_LIMIT, help="seconds per notebook")
    parser.add_argument("--cell-time-limit", type=int,
                        help="seconds the answers may run per test cell (default: c.TrustedVerdicts.cell_timeout, 120)")
    parser.add_argument("--memory-limit", type=int, default=MEMORY_LIMIT_MB,
                        help=f"MB of address space per answer worker (default {MEMORY_LIMIT_MB}; 0: no cap)")
    args = parser.parse_args(argv)
    if not (args.folder.is_dir() or zipfile.is_zipfile(args.folder)):
        parser.error(f"{args.folder} is neither a folder nor a zip file of submissions")
    if problem := writes_into(args.folder, args.workdir):
        parser.error(f"{problem}: grading never writes into the submissions it reads; choose another --workdir")
    workdir = args.workdir.resolve()
    print(f"course: {REPO} (its solutions/ and notebooks/)\nwork folder: {workdir}")
    if not Path.cwd().resolve().is_relative_to(REPO):
        print(f"note: the current folder is not in that course: this environment grades with {REPO}'s notebooks; "
              "run the copy's own environment to grade with the copy", file=sys.stderr)
    try:
        workdir.mkdir(parents=True, exist_ok=True)  # where the SQLite gradebook of a new class goes
        if args.gradebook:
            database.check(args.gradebook)  # an unreachable server is never saved as the class's gradebook
            database.choose(workdir, args.gradebook)
        else:
            database.check(database.url(workdir))
        print(f"gradebook: {database.shown(database.url(workdir))}")
        deadlines.record(database.url(workdir), args.chapter, args.due, args.late_penalty)
        if args.roster:
            roster.record(database.url(workdir), roster.read(args.roster))
            roster.record_canvas_assignments(database.url(workdir), roster.canvas_assignments(args.roster))
    except (ValueError, OSError) as error:
        parser.error(str(error))
    except SQLAlchemyError as error:
        why = getattr(error, "orig", None) or error
        parser.error(f"the gradebook {database.shown(database.url(workdir))} could not be opened: {why}")
    try:
        with ExitStack() as stack:
            workers = None
            if args.queue:  # Celery is imported only where a queue is asked for
                from grading.instructor.workers.queue import QueueWorkers

                workers = stack.enter_context(QueueWorkers(args.queue, args.jobs))
            outcomes = grade(args.chapter, args.folder.resolve(), workdir, args.jobs, args.force,
                             args.id_pattern, Limits(args.time_limit, args.cell_time_limit, args.memory_limit),
                             layout=args.lms, workers=workers)
    except GradingError as error:
        print(error, file=sys.stderr)
        return 1
    print(summary(outcomes))
    with database.opened(database.url(workdir)) as gradebook:
        gaps = export.unmatched(export.rows(gradebook, args.chapter), args.chapter,
                                roster.canvas_column(gradebook, args.chapter))
    for gap in gaps:
        print(f"note: {gap}")
    grades = flags.chapter_folder(workdir, args.chapter)
    print(f"\ngrades: {grades / export.GRADES} (for your LMS: {export.CANVAS}, {export.MOODLE} there)\n"
          f"feedback: {workdir / 'feedback'}/<student>/{args.chapter}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
