"""Which of the chapter's graded functions failed a test in this kernel, so that a failing test of a function
built on them says to fix those first, in the notebook as in the graded feedback.

The chapter's graph (grading.student.dependencies) comes from the cell after the set-up cell, which the
release writes from the solution notebook, the graph the grader reads (``builds_on({...})``). Each test
cell that runs is remembered by its source with the functions it tests (``dependencies.subjects``), as
failed or not, the last time it ran; a failure message is shown with "fix X first" where a function it
tests builds on a function whose test failed (:func:`blamed`, which
``grading.student.checks.ExerciseFailure`` calls as IPython shows it).
"""
from grading.student import dependencies

_calls: dict[str, set[str]] = {}
_failed: dict[str, set[str]] = {}  # a test cell's source -> the functions it tests, while its last run failed
_running: set[str] = set()  # the functions that the running cell tests


def builds_on(calls: dict[str, list[str]]) -> None:
    """The chapter's graph (each graded function -> those it calls); earlier failures are forgotten, as a
    notebook run from the top starts again."""
    _calls.clear()
    _calls.update({function: set(callees) for function, callees in calls.items()})
    _failed.clear()


def blamed(message: str) -> str:
    """The running test's failure ``message`` with "fix X first" for its hint where that is the cause."""
    return dependencies.blamed(message, _running, _calls, set().union(*_failed.values()))


def _before(info) -> None:
    _running.clear()
    _running.update(dependencies.subjects(info.raw_cell or "", _calls))


def _after(result) -> None:
    source = result.info.raw_cell or ""
    if _running and not result.success:
        _failed[source] = set(_running)
    else:
        _failed.pop(source, None)


def install(shell) -> None:
    """Follow the cells that ``shell`` (IPython's) runs."""
    shell.events.register("pre_run_cell", _before)
    shell.events.register("post_run_cell", _after)
