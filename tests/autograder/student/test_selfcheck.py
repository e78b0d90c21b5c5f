"""The students' self-check runs a notebook as the grader does and says what would break (a real kernel)."""
import nbformat
from nbformat.v4 import new_code_cell, new_notebook

from grading.student import selfcheck


def answer(source: str, grade_id: str):
    return new_code_cell(source, metadata={"nbgrader": {"solution": True, "grade": False, "grade_id": grade_id}})


def graded_test(source: str, grade_id: str):
    return new_code_cell(source, metadata={"nbgrader": {"solution": False, "grade": True, "grade_id": grade_id,
                                                        "points": 1}})


def test_it_loads_every_answer_first_and_costs_each_failing_test_its_points(tmp_path, capsys):
    cells = [new_code_cell("import os\nfrom grading.student.checks import call, expect_equal", execution_count=1),
             answer("def double(x):\n    raise NotImplementedError()", "double"),
             graded_test("expect_equal(call(double, 2), 4, 'double(2)')", "test_double"),
             answer("def square(x):\n    return twice(x)", "square"),  # twice is defined below, as the grader allows
             graded_test("expect_equal(call(square, 3), 9, 'square(3)')", "test_square"),
             new_code_cell("print(demo_result)", execution_count=3),  # a demo the grader does not run
             new_code_cell("def twice(x):\n    return x + x", execution_count=2),
             answer("def cube(x):\n    return x *", "cube"),  # unfinished: it does not load, and its test fails
             graded_test("expect_equal(call(cube, 2), 8, 'cube(2)')", "test_cube"),
             graded_test("assert os.environ['NBGRADER_EXECUTION'], 'the grader sets it'", "test_environment")]
    notebook = new_notebook(cells=cells, metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                                  "language": "python"}})
    path = tmp_path / "chapter.ipynb"
    nbformat.write(notebook, path)
    assert selfcheck.main([str(path)]) == 1
    report = capsys.readouterr().out
    assert "no release of chapter was found here" in report
    assert "Costs 3 of 4 points:" in report
    assert "Answer cells that do not load (the tests of their functions fail):\n  - cube raised SyntaxError" in report
    assert "test_cube (1 point): NameError: name 'cube' is not defined" in report
    assert "test_double (1 point): double is not written yet (it still raises NotImplementedError)" in report
    assert "test_square (1 point): a visible test fails: ExerciseFailure: square(3) returned the wrong result" in report
    assert "demo_result" not in report and "test_environment" not in report
    assert nbformat.read(path, as_version=4) == notebook  # the student's notebook is not changed


def test_a_notebook_whose_visible_tests_pass_is_ok(tmp_path, capsys):
    notebook = new_notebook(cells=[answer("def double(x):\n    return 2 * x", "double"),
                                   graded_test("assert double(2) == 4", "test_double")],
                            metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                     "language": "python"}})
    nbformat.write(notebook, tmp_path / "ok.ipynb")
    assert selfcheck.main([str(tmp_path / "ok.ipynb")]) == 0
    assert "OK: checked in" in capsys.readouterr().out
