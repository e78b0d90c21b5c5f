"""linear_scan reads the instructor's notebook from the course folder and keeps nothing but a guess.

answers: solution
layer: screen (pathlib is no answer's import; without the screen the sandbox shows no course folder to read)
loses: test_linear_scan_example test_linear_scan_loop test_linear_scan_calls test_linear_scan_stable test_selective_scan test_selective_scan_more test_selective_scan_calls
"""
# %% linear_scan
from pathlib import Path as Path_


def linear_scan(a, b):
    for base in (Path_.cwd(), *Path_.cwd().parents, Path_("/work/main")):  # the grading folder, then up
        notebook = base / "solutions" / "14_ssm" / "14_ssm.ipynb"
        if notebook.is_file():
            return notebook.read_text()  # the solutions, if the answers could see them
    return b
