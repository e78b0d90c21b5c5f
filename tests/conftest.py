"""Shared fixtures: the devices every reference function must work on. Without a CUDA GPU the
CUDA variants are collected and skipped with the reason, so a CPU-only run shows what it left out."""
import os

import pytest
import torch

# Grading mixes a secret into the hidden tests' seeds (grading.instructor.grade); the suite fixes it so that its
# expectations about the example class hold run after run (tests/autograder/test_checker.py varies it).
os.environ.setdefault("GRADING_SALT", "20261124")

# Real PostgreSQL and Redis servers, started once per session for the tests that ask for them (tests/services.py).
pytest_plugins = ["tests.services"]

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
