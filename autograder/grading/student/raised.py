"""An error that a student's answer raised, told the way a student can act on it.

The student's innermost line first (``at your line, in lstm_step: ...``), then the call of the test with
its arguments' dtypes and shapes (``in the call lstm_encode(x=<float64 [1, 1, 2]>, ...)``), and a hint where
the error's own words name the cause (tensors of different dtypes or devices). The notebook
(grading.student.checks.call) and the graded feedback (the sandboxed answer worker, which ships this
file, and grading.instructor.verdicts.answers) say it with these functions, so that both say the same.
Only the standard library and torch: the answer worker's sandbox holds nothing else.
"""
import re
from collections.abc import Callable
from types import FrameType, TracebackType
from typing import Any

import torch

_MIXED_DTYPES = re.compile(r"expected scalar type|same dtype|scalar type \w+ but|found dtype \w+ but expected|"
                           r"can't be cast to the desired output type", re.IGNORECASE)
_MIXED_DEVICES = re.compile(r"on the same device|expected all tensors to be on", re.IGNORECASE)
KEEP_DTYPE = ("keep the inputs' dtype (create tensors with torch.zeros_like(x), x.new_zeros(...) or dtype=x.dtype; "
              "no .float(), .double() or float32 literals turned into tensors)")
ON_THE_INPUTS_DEVICE = "create new tensors on the inputs' device (torch.zeros_like(x), x.new_zeros(...) or device=x.device)"


def shown(value: Any) -> str:
    """A value as a short text: a tensor's dtype and shape (and device, unless the CPU), a short repr otherwise."""
    if isinstance(value, torch.Tensor):
        return f"<{str(value.dtype).removeprefix('torch.')} {list(value.shape)}" + (
            f" on {value.device}>" if value.device.type != "cpu" else ">")
    if isinstance(value, (list, tuple)) and any(isinstance(v, torch.Tensor) for v in value):
        inner = ", ".join(shown(v) for v in value[:6]) + (", ..." if len(value) > 6 else "")
        return f"[{inner}]" if isinstance(value, list) else f"({inner})"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def the_call(name: str, parameters: list[str], args: tuple, kwargs: dict) -> str:
    """``in the call name(x=<float64 [2, 3]>, ...)``: the arguments as a student can check them."""
    named = [*zip(parameters, args), *((None, a) for a in args[len(parameters):]), *kwargs.items()]
    described = ", ".join(f"{key}={shown(value)}" if key else shown(value) for key, value in named)
    return f"in the call {name}({described})"


def your_line(traceback: TracebackType | None, line_of: Callable[[FrameType, int], tuple[str, str] | None]) -> str:
    """``at your line, in f (cell c): code`` for the innermost frame that ``line_of`` says is the student's
    (it gives the cell's name, or "", and the line's code); "" where the error passed through none."""
    where = None
    while traceback is not None:
        found = line_of(traceback.tb_frame, traceback.tb_lineno)
        if found is not None:
            where = traceback.tb_frame.f_code.co_name, *found
        traceback = traceback.tb_next
    if where is None:
        return ""
    function, cell, line = where
    return f"at your line, in {function}" + (f" (cell {cell})" if cell else "") + f": {line}"


def hint_for(message: str) -> str:
    """The hint an error's message gives by itself: mixed dtypes or devices; "" otherwise."""
    if _MIXED_DTYPES.search(message):
        return f"your code mixes tensors of different dtypes: {KEEP_DTYPE}"
    if _MIXED_DEVICES.search(message):
        return f"your code mixes tensors on different devices: {ON_THE_INPUTS_DEVICE}"
    return ""
