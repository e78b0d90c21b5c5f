"""Due dates and late penalties per chapter, applied by nbgrader's own late-submission step.

Both live in the class's gradebook (grading.instructor.gradebook.database), whichever database it
is: the due date (UTC) is nbgrader's own ``assignment.duedate``, the penalty rule a row of
``course_late_rules``. The grading command records them (``--due``, ``--late-penalty``); later runs
need neither. nbgrader compares the due date with each submission's time (the ``timestamp.txt``
the intake writes next to the notebook). While autograding, nbgrader's AssignLatePenalties asks
:class:`LatePenalty` (``c.AssignLatePenalties.plugin_class``) for the points a late notebook loses,
reading the rule from the gradebook it grades into; the grades CSV shows them
(``late_submission_penalty``).

Rules: ``none`` (the default: the time is recorded, nothing is taken off); ``zero`` (a late
notebook scores 0); ``P%/day`` or ``P%/hour``: P percent of the notebook's maximum score for
each day or hour begun after the due date. nbgrader never takes off more than the score.
"""
import math
import re
from datetime import datetime, timezone

from dateutil import parser as dateparser
from nbgrader.plugins import LateSubmissionPlugin
from sqlalchemy import select

from grading.instructor.gradebook.database import LATE_RULES, TABLES, opened

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


def late_rule(gradebook, chapter: str) -> str:
    """The chapter's late-penalty rule in ``gradebook`` (nbgrader's Gradebook), ``none`` when none was given."""
    TABLES.create_all(gradebook.engine)
    found = gradebook.db.execute(select(LATE_RULES.c.rule).where(LATE_RULES.c.assignment == chapter)).scalar()
    return found or "none"


def record(db_url: str, chapter: str, due: str | None = None, rule: str | None = None) -> None:
    """Keep the chapter's due date and penalty rule, as given, in the gradebook at ``db_url``."""
    moment = due_date(due).replace(tzinfo=None) if due else None  # nbgrader keeps naive UTC times
    if rule:
        penalty(rule, 0, 0, 0)  # refuses an unknown rule before anything is written
    if not (due or rule):
        return
    with opened(db_url) as gradebook:
        if moment:
            gradebook.update_or_create_assignment(chapter, duedate=moment)
        else:
            gradebook.update_or_create_assignment(chapter)
        if rule:
            where = LATE_RULES.c.assignment == chapter
            known = gradebook.db.execute(select(LATE_RULES).where(where)).first()
            gradebook.db.execute(LATE_RULES.update().where(where).values(rule=rule) if known
                                 else LATE_RULES.insert().values(assignment=chapter, rule=rule))
        gradebook.db.commit()


class LatePenalty(LateSubmissionPlugin):
    """nbgrader's late-submission plugin with the chapter's rule from the gradebook it grades into."""

    def late_submission_penalty(self, student_id: str, score: float, total_seconds_late: float) -> float | None:
        step = self.parent  # nbgrader's AssignLatePenalties, grading one notebook
        notebook = step.gradebook.find_submission_notebook(step.notebook_id, step.assignment_id, student_id)
        return penalty(late_rule(step.gradebook, step.assignment_id), total_seconds_late, score, notebook.max_score)
