"""What a student sees in a real Jupyter kernel when a test fails or an example runs an unwritten answer."""
import re

from nbclient import NotebookClient
from nbformat.v4 import new_code_cell, new_notebook

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_failures_show_the_call_and_the_message_and_an_example_names_the_answer_to_write():
    notebook = new_notebook(cells=[
        new_code_cell("import torch\nfrom grading.student.checks import call, expect_tensor"),
        new_code_cell("def gate_update(s, x, g):\n    raise NotImplementedError()"),
        new_code_cell("gate_update(1, 2, 3)  # an example"),
        new_code_cell("expect_tensor(call(gate_update, 1, 2, 3), torch.zeros(2), 'gate_update(1, 2, 3)')"),
        new_code_cell("expect_tensor(torch.ones(2), torch.zeros(2), 'gate_update(s, x, g)', hint='the copy term')"),
    ], metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    NotebookClient(notebook, timeout=120, allow_errors=True).execute()
    errors = [[_ANSI.sub("", line) for line in output.traceback] for cell in notebook.cells
              for output in cell.get("outputs", []) if output.output_type == "error"]
    example, unwritten, wrong = errors
    assert example[1:] == ["NotImplementedError: this cell runs your gate_update, which is not written yet: do the "
                           "exercise of gate_update first (its answer cell above), then run this cell again"]
    assert unwritten[1:] == ["ExerciseFailure: gate_update is not implemented yet: replace "
                             "`raise NotImplementedError()` with your code."]
    assert wrong[1].startswith("ExerciseFailure: gate_update(s, x, g) returned wrong values") and len(wrong) == 2
    assert wrong[1].endswith("Hint: the copy term")
    assert not any("checks.py" in line for error in errors for line in error)


def _errors(cells: list[str]) -> list[list[str]]:
    """The error outputs (traceback lines, colours removed) of ``cells`` run in order in a real kernel."""
    notebook = new_notebook(cells=[new_code_cell(source) for source in cells], metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    NotebookClient(notebook, timeout=120, allow_errors=True).execute()
    return [[_ANSI.sub("", line) for line in output.traceback] for cell in notebook.cells
            for output in cell.get("outputs", []) if output.output_type == "error"]


def test_an_error_in_an_answer_names_the_students_line_and_the_call_as_the_feedback_does():
    """Item 7 of issue 37: the student's own line first, then the test's call with its arguments' shapes, and the
    dtype hint that the error's words call for (lstm_encode's float32 zeros meeting float64 inputs in lstm_step)."""
    (error,) = _errors([
        "import torch\nfrom grading.student.checks import call, expect_tensor",
        "def step(x, h):\n    W = torch.eye(2, dtype=x.dtype)\n    return x @ W + h @ W",
        "def encode(x):\n    h = torch.zeros(x.shape[0], 2)\n    return step(x[:, 0], h)",
        "expect_tensor(call(encode, torch.ones(3, 1, 2, dtype=torch.float64)), torch.ones(3, 2), 'encode(<float64>)')",
    ])
    assert error[1].startswith("AnswerError: RuntimeError: ") and len(error) == 2, error
    lines = error[1].splitlines()
    assert lines[1] == "  at your line, in step: return x @ W + h @ W", lines
    assert lines[2] == "  in the call encode(x=<float64 [3, 1, 2]>)", lines
    assert lines[3].startswith("Hint: your code mixes tensors of different dtypes: keep the inputs' dtype"), lines


def test_a_test_of_a_function_built_on_a_failing_one_says_to_fix_that_one_first():
    """Item 5 of issue 37: the graph that the release's cell gives (builds_on), the failed test above, and a test
    of the function built on it that gives "fix X first" instead of its own hint; once the test above passes
    when run again, the test below gives its own hint."""
    setup = ("import torch\nfrom grading.student.checks import call, expect_tensor\n"
             "from grading.student.progress import builds_on\nbuilds_on({'double': [], 'quadruple': ['double']})")
    test_double = "expect_tensor(call(double, torch.ones(1)), torch.full((1,), 2.0), 'double(1)', hint='times 2')"
    test_quadruple = ("expect_tensor(call(quadruple, torch.ones(1)), torch.full((1,), 4.0), 'quadruple(1)', "
                      "hint='twice double')")
    errors = _errors([
        setup, "def double(x):\n    return x * 3", "def quadruple(x):\n    return double(double(x))",
        test_double, test_quadruple,
        "def double(x):\n    return x * 2", "def quadruple(x):\n    return double(x) + 1", test_double, test_quadruple,
    ])
    assert [error[1].splitlines()[-1] for error in errors] == [
        "Hint: times 2",
        "Hint: quadruple builds on your double, which fails its own tests above: fix double first, then run this "
        "test again",
        "Hint: twice double"]
