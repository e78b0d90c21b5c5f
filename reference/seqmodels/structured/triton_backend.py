"""Where the fused recursions run: in Triton kernels on CUDA (or on the CPU under Triton's interpreter,
``TRITON_INTERPRET=1``, which is how they are tested without a GPU), otherwise in torch ops."""
import importlib.util
import os

import torch

TRITON = importlib.util.find_spec("triton") is not None  # not a course dependency: CUDA builds of torch bring it


def triton_runs_on(tensor: torch.Tensor) -> bool:
    return TRITON and (tensor.is_cuda or os.environ.get("TRITON_INTERPRET") == "1")
