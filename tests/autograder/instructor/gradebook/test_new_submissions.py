"""A new submission is made without SQLAlchemy's warnings and whole (grading.instructor.gradebook.new_submissions)."""
import warnings

from sqlalchemy.exc import SAWarning

from grading.instructor.gradebook import database


def test_a_first_submission_is_built_inside_the_session_with_a_grade_and_a_comment_per_cell(gradebook_url):
    with database.opened(gradebook_url) as gradebook:
        gradebook.add_assignment("01_tokens")
        gradebook.add_notebook("01_tokens", "01_tokens")
        for name, cell_type in (("answer", "code"), ("test", "code")):
            gradebook.add_source_cell(name, "01_tokens", "01_tokens", cell_type=cell_type)
        gradebook.add_solution_cell("answer", "01_tokens", "01_tokens")
        gradebook.add_grade_cell("test", "01_tokens", "01_tokens", max_score=2, cell_type="code")
        gradebook.add_student("alice")
        with warnings.catch_warnings():
            warnings.simplefilter("error", SAWarning)
            gradebook.add_submission("01_tokens", "alice")
        notebook = gradebook.find_submission_notebook("01_tokens", "01_tokens", "alice")
        assert [grade.name for grade in notebook.grades] == ["test"]
        assert [comment.name for comment in notebook.comments] == ["answer"]
