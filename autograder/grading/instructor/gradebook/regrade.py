"""A regrade keeps the written answers' grades: nbgrader's SaveAutoGrades, told which answers changed.

nbgrader's own step keeps a grader's ``manual_score`` and comments when a notebook is autograded
again, but marks every cell with one as needing manual grading, changed or not: after a regrade
(a resubmission, ``--force`` after a new due date, the same hand-in from another download) every
written answer graded by hand read as awaiting grading again, and the grades' files left the
student out. :class:`KeepWrittenGrades` takes its place (``c.Autograde.autograde_preprocessors``)
and remembers, in the gradebook's ``course_written_answers`` (grading.instructor.gradebook.database),
a fingerprint of each written answer as autograded (``seen``) and as graded by hand (``graded``):

- a grader's score is for the answer they saw: when a run finds a cell graded by hand and not
  marked for review, the answer last seen is the graded one;
- a written answer with a grade keeps it and needs no grading when it is the graded answer;
  when it changed, it keeps the grade (and the comments) and is marked for review, as nbgrader does.

Test cells, whose scores the checker computes, follow nbgrader's rule unchanged.
"""
import hashlib

from nbgrader.preprocessors import SaveAutoGrades
from sqlalchemy import select

from grading.instructor.gradebook.database import TABLES, WRITTEN_ANSWERS


def fingerprint(source: str) -> str:
    return hashlib.sha256(source.encode()).hexdigest()


class KeepWrittenGrades(SaveAutoGrades):
    """nbgrader's SaveAutoGrades, with written answers whose graded text is unchanged not marked for grading."""

    def _add_score(self, cell, resources) -> None:
        grade_id = cell.metadata["nbgrader"]["grade_id"]
        grade = self.gradebook.find_grade(grade_id, self.notebook_id, self.assignment_id, self.student_id)
        reviewed = grade.manual_score is not None and not grade.needs_manual_grade
        super()._add_score(cell, resources)
        if grade.auto_score is not None:
            return  # a test cell
        TABLES.create_all(self.gradebook.engine)
        key = {"assignment": self.assignment_id, "notebook": self.notebook_id, "student": self.student_id,
               "cell": grade_id}
        where = [getattr(WRITTEN_ANSWERS.c, column) == value for column, value in key.items()]
        session = self.gradebook.db
        before = session.execute(select(WRITTEN_ANSWERS).where(*where)).first()
        graded = before.seen if before and reviewed else before.graded if before else None
        seen = fingerprint(cell.source)
        if before:
            session.execute(WRITTEN_ANSWERS.update().where(*where).values(seen=seen, graded=graded))
        else:
            session.execute(WRITTEN_ANSWERS.insert().values(**key, seen=seen, graded=graded))
        if grade.manual_score is not None and graded == seen:
            grade.needs_manual_grade = False
        session.commit()
