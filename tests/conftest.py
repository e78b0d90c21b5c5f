"""Shared fixtures: the devices every reference function must work on. Without a CUDA GPU the
CUDA variants are collected and skipped with the reason, so a CPU-only run shows what it left out."""
import os

import pytest
import torch

# Grading mixes a secret into the hidden tests' seeds (grading.instructor.grade); the suite fixes it so that its
# expectations about the example class hold run after run (tests/autograder/test_checker.py varies it).
os.environ.setdefault("GRADING_SALT", "20261124")

# In a worker of ``make test`` (pytest-xdist), PyTorch and the programs the tests start get the worker's share of the
# cores: the threads of two workers on the same two cores wait for each other (a test of 5 s on its own took 70 s)
_WORKERS = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
if _WORKERS > 1:
    for _variable in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(_variable, str(max(1, (os.cpu_count() or 1) // _WORKERS)))
    torch.set_num_threads(int(os.environ["OMP_NUM_THREADS"]))

# Real PostgreSQL and Redis servers, started once per session for the tests that ask for them (tests/services.py).
pytest_plugins = ["tests.services"]

WEBSITE = "tests/book/"  # the modules that share the built site (tests/book/conftest.py)
WEBSITE_SCOPE = "website"


def _scope(nodeid: str) -> str:
    """What one worker runs whole: a test's module, so that its module fixtures (a graded class, a started hub)
    are made once; the website's modules together, so that the site is built once."""
    module = nodeid.split("::")[0]
    return WEBSITE_SCOPE if module.startswith(WEBSITE) else module


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """``make test`` runs the suite on every core with pytest-xdist, a worker per scope (``_scope``). Its own
    ``--dist=loadgroup`` would do it with marks, but it groups nothing under pytest 9.2 (pytest-xdist issue 1386)."""
    from xdist.scheduler import LoadScopeScheduling

    class ByScope(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return _scope(nodeid)

    return ByScope(config, log)


def pytest_collection_modifyitems(items):
    """The website's tests first: the longest scope, so that no worker is left alone with it at the end."""
    items.sort(key=lambda item: _scope(item.nodeid) != WEBSITE_SCOPE)  # a stable sort: the rest keep their order


ACCESSIBILITY_RULES: set[str] = set()  # axe-core's experimental rules that ran (tests/book/conftest.py)
ACCESSIBILITY_NOTES: set[str] = set()  # the moderate and minor violations of every page checked


def pytest_runtest_logreport(report) -> None:
    """Gathers the accessibility findings each test's report carries (tests/book/conftest.py), here in the process
    that prints the summary, wherever the test ran."""
    for key, found in report.user_properties:
        if key == "accessibility":
            rules, notes = found
            ACCESSIBILITY_RULES.update(rules)
            ACCESSIBILITY_NOTES.update(notes)


def pytest_terminal_summary(terminalreporter) -> None:
    """The moderate and minor accessibility violations that the browser tests found (they fail on worse)."""
    if ACCESSIBILITY_RULES:
        terminalreporter.section("accessibility: axe-core's experimental rules, run with the others")
        terminalreporter.write_line(", ".join(sorted(ACCESSIBILITY_RULES)))
    if ACCESSIBILITY_NOTES:
        terminalreporter.section("accessibility: moderate and minor violations (axe-core)")
        for line in sorted(ACCESSIBILITY_NOTES):
            terminalreporter.write_line(line)


NO_GPU = "needs a CUDA GPU (this machine has none)"
DEVICES = ["cpu", pytest.param("cuda", marks=pytest.mark.skipif(not torch.cuda.is_available(), reason=NO_GPU))]


@pytest.fixture(params=DEVICES)
def device(request):
    """The device name. A CUDA variant runs in full float32 (``grading.student.checks.full_precision``): cuDNN runs
    float32 convolutions and recurrent layers on TF32 tensor cores by default, and these tests compare
    PyTorch's cuDNN layers (oracles, or the models' fast paths) with plain matrix products at float32
    tolerances, which TF32's 10-bit mantissas would miss by about 1e-4."""
    if request.param != "cuda":
        yield request.param
        return
    from grading.student.checks import full_precision

    with full_precision():
        yield request.param
