"""nbgrader's ``Gradebook.add_submission`` with the new rows built inside the session.

nbgrader 0.9.6 builds a submission (its notebooks, a grade per test cell, a comment per
answer cell) as objects attached to the assignment it already holds, and adds the whole graph
to the session at the end. SQLAlchemy 1.4 put each such object into the session the moment it
was attached ("cascade_backrefs"); 2.0 dropped that, so the lazy loads inside nbgrader's loop
flush the session while the new objects stand outside it, and every new submission (each
student's first ``nbgrader autograde``, formgrader's too) printed three ``SAWarning``s:
"Object of type <SubmittedAssignment> not in session, add operation along
'Assignment.submissions' will not proceed". The rows came out right (the final add takes the
whole graph); building them under ``no_autoflush``, as the warning itself advises, is the
whole fix. Every nbgrader command loads it through ``autograder/nbgrader_config.py``.
"""
import functools

from nbgrader.api import Gradebook


def build_inside_session() -> None:
    """Make ``Gradebook.add_submission`` build a submission without flushing half of it (once per process)."""
    nbgraders = Gradebook.add_submission
    if getattr(nbgraders, "builds_inside_session", False):
        return

    @functools.wraps(nbgraders)
    def add_submission(self, assignment: str, student: str, **kwargs):
        with self.db.no_autoflush:
            return nbgraders(self, assignment, student, **kwargs)

    add_submission.builds_inside_session = True
    Gradebook.add_submission = add_submission
