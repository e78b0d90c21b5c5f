"""Every solution notebook runs top to bottom in a fresh kernel, its demos included (nbclient).

These are the executions the website's pages are made from (book/make_pages.py), so each
notebook runs once per test session, and not at all when its outputs are cached for exactly
its content and the code it imports (a clean checkout, as in CI, has no cache).
"""
import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from grading.instructor.course import SOLUTIONS, chapters
from tests.book.pages import make_pages


@pytest.mark.parametrize("chapter", chapters())
def test_the_solution_notebook_runs_top_to_bottom(executions, chapter):
    assert list((SOLUTIONS / chapter).glob("*.ipynb")), f"no notebook in solutions/{chapter}/"
    for notebook in sorted((SOLUTIONS / chapter).glob("*.ipynb")):
        assert notebook not in executions, executions.get(notebook)


def test_a_notebook_that_raises_is_reported_and_not_cached(tmp_path):
    broken = tmp_path / "broken.ipynb"
    nbformat.write(new_notebook(cells=[new_code_cell("x = 1"), new_code_cell("1 / 0")]), broken)
    failures = make_pages.execute_all([broken], jobs=1)
    assert "ZeroDivisionError" in failures[broken] and "broken.ipynb" in failures[broken]
    assert not make_pages._cached(broken).exists()
