"""The students' self-check runs a notebook as the grader does and says what would break (a real kernel)."""
import nbformat
from nbformat.v4 import new_code_cell, new_notebook

from grading.student import selfcheck


def answer(source: str, grade_id: str):
    return new_code_cell(source, metadata={"nbgrader": {"solution": True, "grade": False, "grade_id": grade_id}})


def graded_test(source: str, grade_id: str):
    return new_code_cell(source, metadata={"nbgrader": {"solution": False, "grade": True, "grade_id": grade_id,
                                                        "points": 1}})


def test_it_reports_out_of_order_cells_missing_answers_deleted_cells_and_failing_tests(tmp_path, capsys):
    cells = [new_code_cell("import os\nfrom grading.student.checks import call, expect_equal", execution_count=1),
             answer("def double(x):\n    raise NotImplementedError()", "double"),
             graded_test("expect_equal(call(double, 2), 4, 'double(2)')", "test_double"),
             answer("def square(x):\n    return x + x", "square"),
             graded_test("expect_equal(call(square, 3), 9, 'square(3)')", "test_square"),
             new_code_cell("print(helper(2))", execution_count=3),  # helper was defined in a cell since deleted
             new_code_cell("print(os.environ['NBGRADER_EXECUTION'])", execution_count=2)]
    notebook = new_notebook(cells=cells, metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                                  "language": "python"}})
    path = tmp_path / "chapter.ipynb"
    nbformat.write(notebook, path)
    assert selfcheck.main([str(path)]) == 1
    report = capsys.readouterr().out
    assert "cell 7 (print(os.environ['NBGRADER_EXECUTION'])) was run before a cell above it" in report
    assert "cell 3 (test_double): an answer is not written yet" in report
    assert "cell 5 (test_square): a visible test fails: ExerciseFailure: square(3) returned the wrong result" in report
    assert "cell 6 (print(helper(2))): NameError: name 'helper' is not defined: no cell above defines it" in report
    assert nbformat.read(path, as_version=4) == notebook  # the student's notebook is not changed
    executed_env = [line for line in report.splitlines() if "cell 7" in line]
    assert len(executed_env) == 1  # the last cell ran without error: the grader's NBGRADER_EXECUTION was set


def test_a_notebook_that_runs_top_to_bottom_passes(tmp_path, capsys):
    notebook = new_notebook(cells=[answer("def double(x):\n    return 2 * x", "double"),
                                   graded_test("assert double(2) == 4", "test_double")],
                            metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                     "language": "python"}})
    nbformat.write(notebook, tmp_path / "ok.ipynb")
    assert selfcheck.main([str(tmp_path / "ok.ipynb")]) == 0
    assert "OK: it ran top to bottom" in capsys.readouterr().out
