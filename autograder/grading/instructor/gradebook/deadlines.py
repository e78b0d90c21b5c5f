"""Due dates and late penalties per chapter, applied by nbgrader's own late-submission step.

``<workdir>/deadlines.json`` holds, per chapter, the due date (UTC) and the penalty rule::

    {"01_tokens": {"due": "2026-10-05T22:59:00+00:00", "penalty": "10%/day"}}

The grading command writes it (``--due``, ``--late-penalty``) and copies the chapter's due date
onto the assignment in nbgrader's gradebook, where nbgrader compares it with each submission's
time (the ``timestamp.txt`` the intake writes next to the notebook). While autograding,
nbgrader's AssignLatePenalties asks :class:`LatePenalty` (``c.AssignLatePenalties.plugin_class``)
for the points a late notebook loses; the grades CSV shows them (``late_submission_penalty``).

Rules: ``none`` (the default: the time is recorded, nothing is taken off); ``zero`` (a late
notebook scores 0); ``P%/day`` or ``P%/hour``: P percent of the notebook's maximum score for
each day or hour begun after the due date. nbgrader never takes off more than the score.
"""
import json
import math
import os
import re
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

from dateutil import parser as dateparser
from nbgrader.api import Gradebook
from nbgrader.plugins import LateSubmissionPlugin
from sqlalchemy.engine import make_url

from grading.instructor.course import nbgrader_environment

FILE = "deadlines.json"
_RULE = re.compile(r"^(?:none|zero|(?P<percent>\d+(?:\.\d+)?)%/(?P<unit>day|hour))$")
_SECONDS = {"day": 86400, "hour": 3600}


def due_date(text: str) -> datetime:
    """A due date as UTC; one without a time zone is this machine's local time (ValueError if unreadable)."""
    try:
        moment = dateparser.parse(text)
    except (ValueError, OverflowError) as error:
        raise ValueError(f"cannot read the due date {text!r} ({error}); write it as 2026-10-05T23:59") from None
    return moment.astimezone(timezone.utc)


def penalty(rule: str, seconds_late: float, score: float, max_score: float) -> float | None:
    """The points a notebook loses ``seconds_late`` after the due date (None: no penalty)."""
    match = _RULE.match(rule)
    if match is None:
        raise ValueError(f"unknown late penalty {rule!r}: none, zero, P%/day or P%/hour")
    if seconds_late <= 0 or rule == "none":
        return None
    if rule == "zero":
        return score
    units = math.ceil(seconds_late / _SECONDS[match["unit"]])
    return min(score, units * float(match["percent"]) / 100 * max_score)


def load(workdir: Path) -> dict[str, dict[str, str]]:
    path = workdir / FILE
    return json.loads(path.read_text()) if path.is_file() else {}


def record(workdir: Path, chapter: str, due: str | None = None, rule: str | None = None) -> dict[str, str]:
    """Keep the chapter's due date and rule in deadlines.json and its due date in the gradebook; its entry."""
    deadlines = load(workdir)
    entry = deadlines.setdefault(chapter, {})
    if due:
        entry["due"] = due_date(due).isoformat()
    if rule:
        penalty(rule, 0, 0, 0)  # refuses an unknown rule before anything is written
        entry["penalty"] = rule
    if due or rule:
        workdir.mkdir(parents=True, exist_ok=True)
        (workdir / FILE).write_text(json.dumps(deadlines, indent=2, sort_keys=True) + "\n")
    if "due" in entry:
        moment = datetime.fromisoformat(entry["due"]).astimezone(timezone.utc).replace(tzinfo=None)
        with _gradebook(workdir) as gradebook:
            gradebook.update_or_create_assignment(chapter, duedate=moment)
    return entry


@contextmanager
def _gradebook(workdir: Path):
    """The class's gradebook; creating one runs nbgrader's ``alembic`` command, found next to this Python."""
    path = os.environ.get("PATH", "")
    os.environ["PATH"] = nbgrader_environment()["PATH"]
    try:
        with Gradebook(f"sqlite:///{workdir / 'gradebook.db'}") as gradebook:
            yield gradebook
    finally:
        os.environ["PATH"] = path


class LatePenalty(LateSubmissionPlugin):
    """nbgrader's late-submission plugin with the rule of the chapter in deadlines.json next to the gradebook."""

    def late_submission_penalty(self, student_id: str, score: float, total_seconds_late: float) -> float | None:
        step = self.parent  # nbgrader's AssignLatePenalties, grading one notebook
        rule = load(Path(make_url(step.db_url).database).parent).get(step.assignment_id, {}).get("penalty", "none")
        notebook = step.gradebook.find_submission_notebook(step.notebook_id, step.assignment_id, student_id)
        return penalty(rule, total_seconds_late, score, notebook.max_score)
