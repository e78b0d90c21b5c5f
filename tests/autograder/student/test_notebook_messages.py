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
