"""A regrade keeps the grades given by hand: nbgrader's SaveAutoGrades, told which answers changed.

nbgrader's own step keeps a grader's ``manual_score`` and comments when a notebook is autograded
again, but marks every cell with one as needing manual grading, changed or not: after a regrade
(a resubmission, ``--force`` after a new due date, the same hand-in from another download) every
written answer graded by hand, and every test cell whose score a grader overrode in formgrader, read
as awaiting grading again, and the grades' files left the student out. :class:`KeepHandGrades` takes
its place (``c.Autograde.autograde_preprocessors``) and remembers, in the gradebook's
``course_written_answers`` (grading.instructor.gradebook.database), a fingerprint of what each such
score was given for, as autograded (``seen``) and as graded by hand (``graded``): a written answer's
text, and for a test cell the notebook's answer cells (a test may call any of the answers):

- a grader's score is for the answer they saw: when a run finds a cell graded by hand and not
  marked for review, the answer last seen is the graded one;
- a cell with a grade given by hand keeps it and needs no grading when its answer is the graded one;
  when the answer changed, it keeps the grade (and the comments) and is marked for review, as nbgrader
  does (grading.instructor.outputs.export says which kind of cell awaits review).
"""
import hashlib

from nbgrader import utils
from nbgrader.preprocessors import SaveAutoGrades
from sqlalchemy import select

from grading.instructor.gradebook.database import TABLES, WRITTEN_ANSWERS


def fingerprint(source: str) -> str:
    return hashlib.sha256(source.encode()).hexdigest()


class KeepHandGrades(SaveAutoGrades):
    """nbgrader's SaveAutoGrades, with cells graded by hand whose answer is unchanged not marked for grading."""

    def preprocess(self, nb, resources):
        # what a test cell's score given by hand was for: the code of every answer cell
        code = [cell.source for cell in nb.cells if cell.cell_type == "code" and utils.is_solution(cell)]
        self._answers = fingerprint("\n\n".join(code))
        return super().preprocess(nb, resources)

    def _add_score(self, cell, resources) -> None:
        grade_id = cell.metadata["nbgrader"]["grade_id"]
        grade = self.gradebook.find_grade(grade_id, self.notebook_id, self.assignment_id, self.student_id)
        reviewed = grade.manual_score is not None and not grade.needs_manual_grade
        super()._add_score(cell, resources)
        seen = fingerprint(cell.source) if grade.auto_score is None else self._answers  # a written answer, a test
        TABLES.create_all(self.gradebook.engine)
        key = {"assignment": self.assignment_id, "notebook": self.notebook_id, "student": self.student_id,
               "cell": grade_id}
        where = [getattr(WRITTEN_ANSWERS.c, column) == value for column, value in key.items()]
        session = self.gradebook.db
        before = session.execute(select(WRITTEN_ANSWERS).where(*where)).first()
        graded = before.seen if before and reviewed else before.graded if before else None
        if before:
            session.execute(WRITTEN_ANSWERS.update().where(*where).values(seen=seen, graded=graded))
        else:
            session.execute(WRITTEN_ANSWERS.insert().values(**key, seen=seen, graded=graded))
        if grade.manual_score is not None and graded == seen:
            grade.needs_manual_grade = False
        session.commit()
