"""Helpers for the notebooks' test cells.

Tests call a student's function through :func:`call`, which enforces the
syllabus's rules, and compare results with :func:`expect_equal` or
:func:`expect_tensor`, whose failure messages name the call that failed, what was
expected and what came back.
"""
import collections
import contextlib
import importlib
import os
import sys
import types
import warnings
from collections.abc import Callable
from typing import Any

import torch

from grading import guard
from grading.course import CLASSWORK, REPO, SOLUTIONS
from grading.rules import FORBIDDEN, REFERENCE_PACKAGE


# Taken when the notebook's setup cell imports this module, before any answer runs, so that an
# answer which later replaces these functions cannot change how results are compared.
_allclose, _abs, _unravel_index, _stdout = torch.allclose, torch.abs, torch.unravel_index, sys.stdout
_PLAIN_TYPES = (int, float, str, bool, type(None))
_DICT_TYPES = (dict, collections.OrderedDict, collections.defaultdict, collections.Counter)  # the stdlib's, safe


class ExerciseFailure(AssertionError):
    """A test of a graded function failed; the message is written for the student."""


def _require_trust() -> None:
    """Refuse to grade once an answer has tampered with what the tests rely on (see grading.guard)."""
    __tracebackhide__ = True
    problems = guard.problems()
    if problems:
        raise ExerciseFailure(f"Grading stopped: {'; '.join(problems[:3])}. No test can be trusted after that, "
                              "so this one scores 0.")


def passed(what: str) -> None:
    """The closing line of a test cell (end the cell with ``passed(...);`` so nothing else is displayed)."""
    __tracebackhide__ = True
    _require_trust()
    _stdout.write(f"✓ {what}: visible tests passed (more tests run when your notebook is graded)\n")


def _resolve(dotted: str) -> Any:
    module_name, _, attribute = dotted.rpartition(".")
    try:
        return getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError):
        return _resolve(module_name).__dict__[attribute] if "." in module_name else None


def _reference_dir() -> str | None:
    spec = importlib.util.find_spec(REFERENCE_PACKAGE)
    return os.path.dirname(spec.origin) + os.sep if spec and spec.origin else None


class _CallWatcher:
    """A profile hook that notes forbidden callables and reference-package code run during a call."""

    def __init__(self, forbidden: tuple[str, ...]):
        self.builtins: dict[int, str] = {}
        self.codes: dict[types.CodeType, str] = {}
        self.methods: dict[str, str] = {}  # Tensor methods by name: x.softmax() binds a new object on every call
        for dotted in forbidden:
            if dotted.startswith("torch.Tensor."):
                self.methods[dotted.rpartition(".")[2]] = dotted
                continue
            target = _resolve(dotted)
            if isinstance(target, type):  # a module class: constructing or running it is the shortcut
                for method in ("__init__", "forward"):
                    if isinstance(target.__dict__.get(method), types.FunctionType):
                        self.codes[target.__dict__[method].__code__] = dotted
            elif isinstance(target, types.FunctionType):
                self.codes[target.__code__] = dotted
            elif target is not None:
                self.builtins[id(target)] = dotted
        self.reference_dir = _reference_dir()
        self.used: list[str] = []

    def __call__(self, frame: types.FrameType, event: str, arg: Any) -> None:
        if event == "c_call":
            name = self.builtins.get(id(arg))
            if name is None and self.methods and isinstance(getattr(arg, "__self__", None), torch.Tensor):
                name = self.methods.get(arg.__name__)
        elif event == "call":
            code = frame.f_code
            name = self.codes.get(code)
            if name is None and self.reference_dir and code.co_filename.startswith(self.reference_dir):
                name = f"the reference package {REFERENCE_PACKAGE!r}"
        else:
            return
        if name is not None and name not in self.used:
            self.used.append(name)


def call(fn: Callable, *args: Any, **kwargs: Any) -> Any:
    """Call a graded function the way the autograder does and return its result.

    Fails when the function is not written in the notebook, is not implemented
    yet, or uses a forbidden shortcut or the reference package while it runs.
    """
    __tracebackhide__ = True  # IPython and pytest show the student's frames, not ours
    _require_trust()
    name = getattr(fn, "__name__", repr(fn))
    if not callable(fn):
        raise ExerciseFailure(f"{name} should be a function, but it is a {type(fn).__name__}.")
    if getattr(fn, "__module__", "__main__") != "__main__":
        raise ExerciseFailure(
            f"{name} comes from the module {fn.__module__!r}; write it yourself in the notebook's answer cell."
        )
    watcher = _CallWatcher(FORBIDDEN.get(name, ()))
    previous = sys.getprofile()
    sys.setprofile(watcher)
    try:
        with warnings.catch_warnings(record=True):  # nbgrader scores any stderr output 0: a warning is no error
            warnings.simplefilter("always")
            result = fn(*args, **kwargs)
    except NotImplementedError as error:
        raise ExerciseFailure(f"{name} is not implemented yet: replace `raise NotImplementedError()` with your code.") from error
    finally:
        sys.setprofile(previous)
    if watcher.used:
        raise ExerciseFailure(
            f"{name} used {', '.join(watcher.used)}, which this exercise does not allow: the point is to "
            f"build it yourself. Every test of {name} gives 0 points until it no longer does."
        )
    return result


def _show(value: Any, limit: int = 400) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 5] + " ...)"


def _fail(call_text: str, problem: str, expected: Any, got: Any, hint: str) -> None:
    __tracebackhide__ = True  # IPython and pytest show the student's frames, not ours
    message = f"{call_text} {problem}\n  expected: {_show(expected)}\n  got:      {_show(got)}"
    raise ExerciseFailure(message + (f"\nHint: {hint}" if hint else ""))


def _plain(value: Any, call_text: str, expected: Any) -> Any:
    """A copy built of builtin types only, so comparing it runs no code of the student's."""
    __tracebackhide__ = True
    kind = type(value)
    if kind in _PLAIN_TYPES:
        return value
    if kind in (list, tuple):
        return kind(_plain(item, call_text, expected) for item in value)
    if kind in _DICT_TYPES:
        return {_plain(k, call_text, expected): _plain(v, call_text, expected) for k, v in dict.items(value)}
    _fail(call_text, f"returned a value of type {kind.__name__}; expected plain Python values.", expected, value, "")


def expect_equal(got: Any, expected: Any, call: str, hint: str = "") -> None:
    """Exact equality of plain Python results (lists, dicts, numbers, strings)."""
    __tracebackhide__ = True  # IPython and pytest show the student's frames, not ours
    _require_trust()
    got = _plain(got, call, expected)
    if type(got) is not type(expected):
        _fail(call, f"returned a {type(got).__name__}; expected a {type(expected).__name__}.", expected, got, hint)
    if got != expected:
        if isinstance(expected, dict):
            wrong = [k for k in expected if got.get(k, object()) != expected[k]] + [k for k in got if k not in expected]
            problem = f"returned the wrong mapping (first difference at key {wrong[0]!r})."
        elif isinstance(expected, list) and len(got) == len(expected):
            first = next(i for i, (a, b) in enumerate(zip(got, expected)) if a != b)
            problem = f"returned the wrong list (first difference at position {first})."
        else:
            problem = "returned the wrong result."
        _fail(call, problem, expected, got, hint)


def expect_tensor(
    got: Any,
    expected: torch.Tensor,
    call: str,
    *,
    atol: float = 1e-6,
    rtol: float = 1e-5,
    check_dtype: bool = True,
    hint: str = "",
) -> None:
    """A tensor of the expected shape, dtype and device whose values match within tolerance."""
    __tracebackhide__ = True  # IPython and pytest show the student's frames, not ours
    _require_trust()
    if type(expected) is not torch.Tensor:
        raise ExerciseFailure(f"the test's expected value for {call} is a {type(expected).__name__}, not a tensor: "
                              "a name the tests use was changed in the notebook.")
    if type(got) is not torch.Tensor:  # a subclass could redefine comparisons
        _fail(call, f"returned a {type(got).__name__}; expected a torch.Tensor.", expected, got, hint)
    if got.shape != expected.shape:
        _fail(call, f"returned a tensor of shape {tuple(got.shape)}; expected shape {tuple(expected.shape)}.",
              expected, got, hint)
    if check_dtype and got.dtype != expected.dtype:
        _fail(call, f"returned dtype {got.dtype}; expected {expected.dtype}.", expected, got, hint)
    if got.device != expected.device:
        _fail(call, f"returned a tensor on {got.device}; expected it on {expected.device}.", expected, got, hint)
    got_values, expected_values = got.detach().to(torch.float64), expected.detach().to(torch.float64)
    if not _allclose(got_values, expected_values, atol=atol, rtol=rtol, equal_nan=True):
        error = _abs(got_values - expected_values).nan_to_num(float("inf"))
        where = tuple(int(i) for i in _unravel_index(error.argmax(), error.shape))
        _fail(call, f"returned wrong values (largest error {float(error.max()):.3g} at index {where}: "
                    f"expected {expected_values[where].item():.6g}, got {got_values[where].item():.6g}).",
              expected, got, hint)


def _tf32_settings() -> dict[str, Any]:
    """The TF32 switches of cuDNN and CUDA matmuls as they are now (read so that none of torch's checks can raise)."""
    cudnn, matmul = torch.backends.cudnn, torch.backends.cuda.matmul
    per_op = ((cudnn, "conv"), (cudnn, "rnn"), (torch.backends.cuda, "matmul"), (torch.backends.mkldnn, "matmul"))
    settings: dict[str, Any] = {"per_op": {(module, op): getattr(module, op).fp32_precision for module, op in per_op
                                           if hasattr(getattr(module, op, None), "fp32_precision")}}  # torch >= 2.9
    try:  # the legacy switches refuse to be read once the two APIs disagree: then the per-operator one decides
        settings["cudnn"] = bool(cudnn.allow_tf32)
    except RuntimeError:
        settings["cudnn"] = settings["per_op"].get((cudnn, "conv")) == "tf32"
    try:
        settings["matmul"] = torch.get_float32_matmul_precision()
    except RuntimeError:
        settings["matmul"] = "high" if matmul.fp32_precision == "tf32" else "highest"
    return settings


@contextlib.contextmanager
def full_precision():
    """Inside the block, CUDA computes float32 in full precision: no TF32 in cuDNN nor in CUDA matrix products.

    cuDNN runs float32 convolutions (``F.conv1d``, ``F.conv2d``) and recurrent layers (``nn.LSTM``,
    ``nn.GRU``, ``nn.RNN``) on TF32 tensor cores by default (``torch.backends.cudnn.allow_tf32`` is True),
    which keeps 10 bits of each input's mantissa: on an H100, ``nn.LSTM`` then differs from the same LSTM
    written with plain matrix products by more than 1e-4. CUDA matrix products use TF32 only once someone
    switches it on (``torch.backends.cuda.matmul.allow_tf32``, ``torch.set_float32_matmul_precision``),
    which a notebook cell may do. A test's expected values must be exact float32, so a CUDA test whose
    values come from matrix products, convolutions or recurrent layers computes them inside this block.

    The answer's call runs inside the same block, although an answer is otherwise graded as it runs:
    ``grading.rules`` forbids convolutions only in chapter 07 and recurrent layers only where they are
    the exercise, so elsewhere an answer may compute its matrix products with a permitted cuDNN op (a
    width-1 ``F.conv1d`` is one), which would be TF32 on a GPU and exact on a CPU. Inside the block it is
    graded on what it computes, as on a CPU; an answer made of plain matrix products runs exactly as it
    would outside (their TF32 is off unless a cell switched it on).

    Sets the switches through both of torch's interfaces (``allow_tf32`` and, from torch 2.9,
    ``fp32_precision`` per operator) and restores the previous settings on the way out, even after an
    error. Without CUDA the switches change nothing (they are set and restored all the same).
    """
    before = _tf32_settings()
    try:
        torch.backends.cudnn.allow_tf32 = False  # the legacy switches first: they reset the per-operator ones...
        torch.set_float32_matmul_precision("highest")  # (CUDA and oneDNN matmuls together, so they agree)
        for module, op in before["per_op"]:  # ...which then say "ieee" explicitly, whatever their parents say
            getattr(module, op).fp32_precision = "ieee"
        yield
    finally:
        torch.backends.cudnn.allow_tf32 = before["cudnn"]
        torch.set_float32_matmul_precision(before["matmul"])
        for (module, op), value in before["per_op"].items():
            getattr(module, op).fp32_precision = value


if os.environ.get("NBGRADER_EXECUTION") == "autograde":  # after every helper above is defined
    guard.install(protected=(*os.environ.get("GRADING_PROTECTED", "").split(os.pathsep), str(SOLUTIONS),
                             str(CLASSWORK)), course=str(REPO))
