"""The size a chapter's training demo runs at: the one place that picks it by device, for every chapter.

On a CUDA GPU a demo trains at the GPU scale (``SCALES["gpu"]``, as ``python -m seqmodels.train --scale gpu``:
8x the generated data, layers 4x as wide, batches 8x as large, so the same number of steps per epoch and
about the same wall time as the CPU scale on a student's 2 CPU threads); anywhere else at the CPU scale, so
the notebooks on a CPU train exactly as before. ``SEQMODELS_DEMO_SCALE=cpu`` (or ``gpu``) overrides the
choice, e.g. to reproduce a chapter's CPU figures on a GPU.

``report`` prints a demo's result on one line that begins ``demo at the <scale> scale``: the GPU session
(``bench/gpu_session.py``) collects those lines from every notebook it runs, so that each chapter's figure at
the GPU scale is recorded beside the one at the CPU scale.
"""
import os

import torch

from seqmodels.tasks.base import SCALES, Scale

OVERRIDE = "SEQMODELS_DEMO_SCALE"


def demo_scale_name(device: torch.device | str) -> str:
    """``"gpu"`` on a CUDA device, ``"cpu"`` elsewhere (Apple's MPS included), unless $SEQMODELS_DEMO_SCALE says."""
    chosen = os.environ.get(OVERRIDE, "").strip().lower()
    if chosen:
        if chosen not in SCALES:
            raise ValueError(f"{OVERRIDE}={chosen!r}: use one of {', '.join(SCALES)} (or leave it unset)")
        return chosen
    return "gpu" if torch.device(device).type == "cuda" else "cpu"


def demo_scale(device: torch.device | str) -> Scale:
    """How many times the CPU demo's data, widths and batch size the demo uses on ``device``."""
    return SCALES[demo_scale_name(device)]


def report(device: torch.device | str, **metrics: float) -> str:
    """Print and return the demo's result: ``demo at the gpu scale (cuda): test accuracy 0.912``."""
    shown = ", ".join(f"{name.replace('_', ' ')} {value:.3f}" for name, value in metrics.items())
    line = f"demo at the {demo_scale_name(device)} scale ({torch.device(device).type}): {shown}"
    print(line)
    return line
