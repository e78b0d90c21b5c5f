"""Helpers for the notebooks' test cells.

Tests call a student's function through :func:`call`, which enforces the
syllabus's rules, and compare results with :func:`expect_equal`, :func:`expect_close` (a float) or
:func:`expect_tensor`, whose failure messages name the call that failed, what was
expected and what came back. A hint belongs to the property that failed: a test's ``hint``
is the cause of wrong values, and a wrong type, shape, dtype or device gets its own hint
(``shape_hint``, ``dtype_hint``, ``device_hint``; dtype and device have general ones), so
that a student is never sent after a bug the values do not show.

In a notebook a failure shows its message only (``ExerciseFailure._render_traceback_``),
not the frames of this module, with "fix X first" for its hint where the function tested builds on
one whose test failed (grading.student.progress); an error raised in an answer is told as the graded
feedback tells it, the student's line first (:class:`AnswerError`, grading.student.raised); and an
example cell that runs an answer not written yet says which answer to write (:func:`_not_written_yet`).
Both are registered with IPython on import.
"""
import collections
import contextlib
import inspect
import linecache
import os
import sys
import warnings
from collections.abc import Callable
from typing import Any

import torch

from grading.student import progress, raised
from grading.student.rules import FORBIDDEN, REFERENCE_PACKAGE
from grading.student.watch import CallWatcher, TorchCallCounter

# Taken when the notebook's setup cell imports this module, before any answer runs: in a student's own
# runs an answer that replaces these does not change how results are compared (grading does not rely on
# this: it compares in the trusted checker, where no answer runs).
_allclose, _abs, _unravel_index, _stdout = torch.allclose, torch.abs, torch.unravel_index, sys.stdout
_PLAIN_TYPES = (int, float, str, bool, type(None))
_DICT_TYPES = (dict, collections.OrderedDict, collections.defaultdict, collections.Counter)  # the stdlib's, safe
DTYPE_HINT = f"the values may be right, the dtype is not: {raised.KEEP_DTYPE}"
DEVICE_HINT = f"{raised.ON_THE_INPUTS_DEVICE}, and do not move results with .cpu() or .cuda()"
_RULE = "-" * 75  # IPython's first traceback line, which feedback pages trim
# (atol, rtol) of a check that states neither, by the expected dtype. Machine epsilon is 2.2e-16 in float64 and
# 1.2e-7 in float32: float64's 1e-12 leaves room for a few thousand roundings and none for float32 arithmetic,
# float32's 1e-5 for under a hundred; 16-bit ones as torch.testing.assert_close's. Integers and booleans exactly.
DEFAULT_TOLERANCE = {torch.float64: (1e-12, 1e-12), torch.float32: (1e-6, 1e-5),
                     torch.float16: (1e-5, 1e-3), torch.bfloat16: (1e-5, 1.6e-2)}


class ExerciseFailure(AssertionError):
    """A test of a graded function failed; the message is written for the student, ``hint`` names a likely cause."""

    def __init__(self, message: str, hint: str = ""):
        super().__init__(message + (f"\nHint: {hint}" if hint else ""))
        self.hint = hint

    def _render_traceback_(self) -> list[str]:
        """What IPython shows for it: the message, which names the call, without this module's frames."""
        return [_RULE, f"{type(self).__name__}: {progress.blamed(str(self))}"]


class AnswerError(ExerciseFailure):
    """The student's code raised ``kind``; the message says where and in which call (grading.student.raised)."""

    def __init__(self, kind: str, message: str):
        super().__init__(f"{kind}: {message}", raised.hint_for(message))
        self.kind = kind


def _in_the_notebook(frame, number: int) -> tuple[str, str] | None:
    """A line of a function defined in the notebook (its cells' code runs as __main__)."""
    if frame.f_globals.get("__name__") != "__main__" or frame.f_code.co_name == "<module>":
        return None
    return "", linecache.getline(frame.f_code.co_filename, number).strip()


def _parameters(fn: Callable) -> list[str]:
    try:
        return list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return []


def passed(what: str) -> None:
    """The closing line of a test cell (end the cell with ``passed(...);`` so nothing else is displayed)."""
    __tracebackhide__ = True
    graded = os.environ.get("NBGRADER_EXECUTION") == "checker"  # the trusted checker runs the hidden tests too
    _stdout.write(f"✓ {what}: " + ("passed\n" if graded else
                                   "visible tests passed (more tests run when your notebook is graded)\n"))


def forbidden_failure(name: str, used: str) -> ExerciseFailure:
    return ExerciseFailure(f"{name} used {used}, which this exercise does not allow: the point is to build it "
                           f"yourself. Every test of {name} gives 0 points until it no longer does.")


def call(fn: Callable, *args: Any, **kwargs: Any) -> Any:
    """Call a graded function the way the autograder does and return its result.

    Fails when the function is not written in the notebook, is not implemented
    yet, or uses a forbidden shortcut or the reference package while it runs.
    When grading, ``fn`` is the trusted checker's stand-in for the function, which runs it
    in the sandboxed answer worker and watches for forbidden calls there.
    """
    __tracebackhide__ = True  # IPython and pytest show the student's frames, not ours
    return _call(fn, args, kwargs, count=False)


def call_counted(fn: Callable, *args: Any, **kwargs: Any) -> tuple[Any, dict]:
    """:func:`call`, which also counts the top-level PyTorch calls the answer makes (``grading.student.watch.
    TorchCallCounter``): ``(result, {"calls": int, "names": [str], "largest": int})``, where ``largest`` is the
    number of elements of the largest tensor a call returned. When grading, the answer worker counts them."""
    __tracebackhide__ = True
    return _call(fn, args, kwargs, count=True)


def _call(fn: Callable, args: tuple, kwargs: dict, count: bool) -> Any:
    __tracebackhide__ = True
    name = getattr(fn, "__name__", repr(fn))
    if not callable(fn):
        raise ExerciseFailure(f"{name} should be a function, but it is a {type(fn).__name__}.")
    if getattr(fn, "__module__", "__main__") != "__main__":
        raise ExerciseFailure(
            f"{name} comes from the module {fn.__module__!r}; write it yourself in the notebook's answer cell."
        )
    remote = getattr(type(fn), "__grading_remote__", None)
    counter = TorchCallCounter()
    try:
        if remote is not None:
            return remote(fn, args, kwargs, count=True) if count else remote(fn, args, kwargs)
        with warnings.catch_warnings(record=True), CallWatcher(FORBIDDEN.get(name, ()), REFERENCE_PACKAGE) as watcher:
            warnings.simplefilter("always")  # nbgrader scores any stderr output 0: a warning is no error
            try:
                with counter if count else contextlib.nullcontext():
                    result = fn(*args, **kwargs)
            except (NotImplementedError, ExerciseFailure):
                raise
            except Exception as error:  # told as the graded feedback tells it (grading.instructor.verdicts.answers)
                where = raised.your_line(error.__traceback__, _in_the_notebook)
                raise AnswerError(type(error).__name__, f"{error}" + (f"\n  {where}" if where else "")
                                  + f"\n  {raised.the_call(name, _parameters(fn), args, kwargs)}") from None
    except NotImplementedError:
        raise ExerciseFailure(f"{name} is not implemented yet: replace `raise NotImplementedError()` with your "
                              "code.") from None  # the stub's own traceback says nothing more
    if watcher.used:
        raise forbidden_failure(name, ", ".join(watcher.used))
    return (result, counter.summary()) if count else result


def expect_calls_grow_slowly(counts: dict[int, dict], at_most: float, call: str, hint: str = "") -> None:
    """The PyTorch calls that :func:`call_counted` counted at a short and a long length (``{L: counts}``, two
    lengths) grow by at most ``at_most`` times (0: not at all)."""
    __tracebackhide__ = True
    (short, few), (long, many) = sorted(counts.items())
    allowed = few["calls"] * max(at_most, 1)
    if many["calls"] > allowed:
        growth = "the same number" if at_most == 0 else f"at most {at_most:g}× as many"
        raise ExerciseFailure(
            f"{call} made {few['calls']} PyTorch calls at L = {short} and {many['calls']} at L = {long} "
            f"({many['calls'] / max(few['calls'], 1):.1f}× as many); expected {growth} at L = {long}. A Python loop "
            f"over t makes a call or more per step, so its count grows with L: that is what this test rejects.", hint)


def _show(value: Any, limit: int = 400) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 5] + " ...)"


def _fail(call_text: str, problem: str, expected: Any, got: Any, hint: str) -> None:
    __tracebackhide__ = True  # IPython and pytest show the student's frames, not ours
    raise ExerciseFailure(f"{call_text} {problem}\n  expected: {_show(expected)}\n  got:      {_show(got)}", hint)


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


def expect_equal(got: Any, expected: Any, call: str, hint: str = "", type_hint: str = "") -> None:
    """Exact equality of plain Python results (lists, dicts, numbers, strings); ``hint`` for wrong values only."""
    __tracebackhide__ = True  # IPython and pytest show the student's frames, not ours
    got = _plain(got, call, expected)
    if type(got) is not type(expected):
        _fail(call, f"returned a {type(got).__name__}; expected a {type(expected).__name__}.", expected, got,
              type_hint)
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


def expect_close(got: Any, expected: float, call: str, *, atol: float, rtol: float, hint: str = "",
                 type_hint: str = "") -> None:
    """A Python float within ``atol + rtol * |expected|`` of ``expected``; ``hint`` for a wrong value only."""
    __tracebackhide__ = True  # IPython and pytest show the student's frames, not ours
    if not isinstance(got, float):  # a float subclass (numpy.float64) is a float, compared by its value
        _fail(call, f"returned a {type(got).__name__}; expected a float.", expected, got, type_hint)
    got = float(got)
    if not abs(got - expected) <= atol + rtol * abs(expected):  # a nan is never close
        _fail(call, f"returned the wrong value (off by {got - expected:.3g}).", expected, got, hint)


def expect_tensor(
    got: Any,
    expected: torch.Tensor,
    call: str,
    *,
    atol: float | None = None,
    rtol: float | None = None,
    check_dtype: bool = True,
    hint: str = "",
    shape_hint: str = "",
    dtype_hint: str = DTYPE_HINT,
    device_hint: str = DEVICE_HINT,
) -> None:
    """A tensor of the expected shape, dtype and device whose values match within tolerance.

    Values match where ``|got - expected| <= atol + rtol * |expected|``, with the tolerance that
    :func:`tolerance` gives: what the test states, and nothing it does not (``atol`` alone means
    ``rtol=0``), or, where it states neither, the default for the expected dtype. ``hint`` is given
    for wrong values only; a wrong shape, dtype or device gets the hint of that property.
    """
    __tracebackhide__ = True  # IPython and pytest show the student's frames, not ours
    if type(expected) is not torch.Tensor:
        raise ExerciseFailure(f"the test's expected value for {call} is a {type(expected).__name__}, not a tensor: "
                              "a name the tests use was changed in the notebook.")
    if type(got) is not torch.Tensor:  # a subclass could redefine comparisons
        _fail(call, f"returned a {type(got).__name__}; expected a torch.Tensor.", expected, got, "")
    if got.shape != expected.shape:
        _fail(call, f"returned a tensor of shape {tuple(got.shape)}; expected shape {tuple(expected.shape)}.",
              expected, got, shape_hint)
    if check_dtype and got.dtype != expected.dtype:
        _fail(call, f"returned dtype {got.dtype}; expected {expected.dtype}.", expected, got, dtype_hint)
    if got.device != expected.device:
        _fail(call, f"returned a tensor on {got.device}; expected it on {expected.device}.", expected, got,
              device_hint)
    atol, rtol = tolerance(expected.dtype, atol, rtol)
    got_values, expected_values = got.detach().to(torch.float64), expected.detach().to(torch.float64)
    # nan equals nothing: no test expects one, and an answer that returns nan never matches an oracle's nan
    if not _allclose(got_values, expected_values, atol=atol, rtol=rtol, equal_nan=False):
        error = _abs(got_values - expected_values).nan_to_num(float("inf"))
        excess = (error - rtol * _abs(expected_values)).nan_to_num(float("inf"))  # largest beyond the tolerance
        where = tuple(int(i) for i in _unravel_index(excess.argmax(), excess.shape))
        digits = 17 if expected.dtype == torch.float64 else 9  # enough to tell the two apart
        _fail(call, f"returned wrong values (largest error {error[where].item():.3g} at index {where}: expected "
                    f"{expected_values[where].item():.{digits}g}, got {got_values[where].item():.{digits}g}; "
                    f"the test allows {atol:g} + {rtol:g} x |expected|).", expected, got, hint)


def tolerance(dtype: torch.dtype, atol: float | None = None, rtol: float | None = None) -> tuple[float, float]:
    """The (atol, rtol) a comparison of ``dtype`` values applies: both as a test states them, the one it does not
    state 0, and where it states neither, ``DEFAULT_TOLERANCE`` for ``dtype`` (exact for integers and booleans)."""
    if atol is None and rtol is None:
        return DEFAULT_TOLERANCE.get(dtype, (0.0, 0.0))
    return float(atol or 0.0), float(rtol or 0.0)


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
    ``grading.student.rules`` forbids convolutions only in chapter 07 and recurrent layers only where they are
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


def _not_written_yet(shell, kind, error, traceback, tb_offset=None) -> list[str]:
    """IPython's handler of NotImplementedError in a cell: which answer the cell needs, in one line.

    A stub's bare ``raise NotImplementedError()`` names nothing: the innermost function of the notebook in
    the traceback is the answer not written yet. A message of its own (the course package's, naming an
    earlier chapter's function) is shown as it is.
    """
    stub = None
    while traceback is not None:
        frame = traceback.tb_frame
        if frame.f_globals.get("__name__") == "__main__" and frame.f_code.co_name != "<module>":
            stub = frame.f_code.co_name
        traceback = traceback.tb_next
    if str(error):
        message = str(error)
    elif stub:
        message = (f"this cell runs your {stub}, which is not written yet: do the exercise of {stub} first (its "
                   "answer cell above), then run this cell again")
    else:
        message = "this cell runs an answer that is not written yet: do the exercises above it first"
    stb = [_RULE, f"NotImplementedError: {message}"]
    shell._showtraceback(kind, error, stb)
    return stb


def _install_notebook_messages() -> None:
    try:
        from IPython import get_ipython
    except ImportError:  # not in a notebook (the grader's checker, the tests)
        return
    shell = get_ipython()
    if shell is not None:
        shell.set_custom_exc((NotImplementedError,), _not_written_yet)
        progress.install(shell)


_install_notebook_messages()
