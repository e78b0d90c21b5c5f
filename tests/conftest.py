"""Shared fixtures: the devices every reference function must work on. Without a CUDA GPU the
CUDA variants are collected and skipped with the reason, so a CPU-only run shows what it left out."""
import pytest
import torch

NO_GPU = "needs a CUDA GPU (this machine has none)"
DEVICES = ["cpu", pytest.param("cuda", marks=pytest.mark.skipif(not torch.cuda.is_available(), reason=NO_GPU))]


@pytest.fixture(params=DEVICES)
def device(request) -> str:
    return request.param
