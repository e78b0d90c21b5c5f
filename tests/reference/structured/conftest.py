"""The two backends of the fused paths (``fused_ctc_loss``, ``crf_viterbi_fused``): torch ops everywhere, and
Triton kernels where Triton runs (CUDA, or the CPU under ``TRITON_INTERPRET=1`` with Triton importable);
without them the Triton variants are collected and skipped with the reason."""
import pytest
import torch

from seqmodels.structured import crf, ctc_fused
from seqmodels.structured.triton_backend import triton_runs_on

NO_TRITON = ("needs Triton: on CUDA, or on the CPU under its interpreter "
             "(pip install --target /tmp/triton triton; PYTHONPATH=/tmp/triton TRITON_INTERPRET=1)")


@pytest.fixture(params=["torch", "triton"])
def backend(request, device, monkeypatch) -> str:
    if request.param == "torch":
        for module in (ctc_fused, crf):
            monkeypatch.setattr(module, "triton_runs_on", lambda tensor: False)
    elif not triton_runs_on(torch.empty(0, device=device)):
        pytest.skip(NO_TRITON)
    return request.param
