"""How the grading preprocessor reads the runtime guard's final report (grading.execute)."""
import pytest
from nbformat.v4 import new_output

from grading.execute import GUARD_LINE, GradingExecute


def _report(*outputs):
    return list(outputs)


def _error(ename, evalue):
    return new_output("error", ename=ename, evalue=evalue, traceback=[])


def test_a_clean_report_and_a_report_with_problems_are_read_as_such():
    clean = new_output("stream", name="stdout", text=GUARD_LINE + '{"installed": true, "problems": []}\n')
    caught = new_output("stream", name="stdout", text=GUARD_LINE + '{"installed": true, "problems": ["p"]}\n')
    assert GradingExecute._guard_problems(_report(clean)) == []
    assert GradingExecute._guard_problems(_report(caught)) == ["p"]


@pytest.mark.parametrize("ename, evalue", [
    ("MemoryError", ""),
    ("OSError", "[Errno 12] Cannot allocate memory"),
    ("RuntimeError", "CUDA out of memory. Tried to allocate 2.00 GiB"),
    ("RuntimeError", "std::bad_alloc"),
    ("CellTimeoutError", ""),
])
def test_a_limit_reached_by_the_final_check_is_not_tampering(ename, evalue):
    assert GradingExecute._guard_problems(_report(_error(ename, evalue))) == []


@pytest.mark.parametrize("ename", ["ImportError", "AttributeError", "KeyboardInterrupt"])
def test_a_final_check_broken_any_other_way_is_tampering_and_named(ename):
    problems = GradingExecute._guard_problems(_report(_error(ename, "")))
    assert len(problems) == 1 and ename in problems[0] and "grading code was changed" in problems[0]


def test_a_stray_interrupt_in_the_first_report_is_outweighed_by_the_second():
    clean = new_output("stream", name="stdout", text=GUARD_LINE + '{"installed": true, "problems": []}\n')
    assert GradingExecute._guard_problems(_report(_error("KeyboardInterrupt", ""), clean)) == []
