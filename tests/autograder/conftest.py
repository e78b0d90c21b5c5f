"""Grading processes shared by the tests that grade whole classes (the red team, every example class)."""
import pytest

from grading.instructor.workers.local import GradingWorkers


@pytest.fixture(scope="session")
def grading_workers():
    """Two long-lived grading processes, as one instructor's run of several chapters shares them
    (grading.instructor.example_class): nbgrader, PyTorch and the answers' zygote are started once for all
    the classes graded, not once per class."""
    with GradingWorkers(2) as workers:
        yield workers
