"""Which forbidden callables, and which reference-package code, run while a graded function runs.

Used by ``grading.student.checks.call`` in a student's kernel and by the sandboxed answer worker
(``grading.instructor.verdicts.answer_worker``), which loads this file by path: it imports only the
standard library and torch.
"""
import importlib
import importlib.util
import os
import sys
import threading
import types
from typing import Any

import torch
from torch.overrides import TorchFunctionMode


def _resolve(dotted: str) -> Any:
    module_name, _, attribute = dotted.rpartition(".")
    try:
        return getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError):
        return _resolve(module_name).__dict__[attribute] if "." in module_name else None


def _package_dir(package: str) -> str | None:
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    return os.path.dirname(spec.origin) + os.sep if spec and spec.origin else None


def _route(frame: types.FrameType | None) -> str:
    """The notebook's functions between the graded one (outermost) and the call, as " (through your f → g)"."""
    names = []
    while frame is not None:
        names_it = frame.f_globals  # the notebook's (or the answers') namespace; a program run as __main__ has a file
        if names_it.get("__name__") == "__main__" and "__file__" not in names_it and frame.f_code.co_name != "<module>":
            names.append(frame.f_code.co_name)
        frame = frame.f_back
    return f" (through your {' → '.join(reversed(names[:-1]))})" if len(names) > 1 else ""


def _set(value: Any) -> bool:
    """Whether a forbidden argument was given a value that does something (not None, 0 or False)."""
    try:
        return bool(value)
    except Exception:  # noqa: BLE001 - a tensor of several values, an object whose bool raises: given
        return True


class CallWatcher:
    """A profile hook that notes forbidden callables and reference-package code run during a call.

    Used as a context manager it watches the calling thread and every thread started while
    it is active (through ``threading``'s profile hook; the answer worker instead hands the
    hook to every new thread, raw ``_thread`` starts included).
    """

    def __init__(self, forbidden: tuple[str, ...], reference_package: str, threads: bool = True):
        self.builtins: dict[int, str] = {}
        self.codes: dict[types.CodeType, str] = {}
        self.methods: dict[str, str] = {}  # Tensor methods by name: x.softmax() binds a new object on every call
        # "f(arg)" forbids the Python function (or module class) f only when called with a true value for arg
        self.conditions: dict[types.CodeType, str] = {}
        for entry in forbidden:
            dotted, _, argument = entry.partition("(")
            argument = argument.rstrip(")")
            if dotted.startswith("torch.Tensor."):
                self.methods[dotted.rpartition(".")[2]] = dotted
                continue
            target = _resolve(dotted)
            if isinstance(target, type):  # a module class: constructing or running it is the shortcut
                codes = [target.__dict__[method].__code__ for method in (("__init__",) if argument else
                                                                         ("__init__", "forward"))
                         if isinstance(target.__dict__.get(method), types.FunctionType)]
            elif isinstance(target, types.FunctionType):
                codes = [target.__code__]
            else:
                codes = []
                if target is not None:
                    self.builtins[id(target)] = dotted
            for code in codes:
                self.codes[code] = f"{dotted} with {argument}" if argument else dotted
                if argument:
                    self.conditions[code] = argument
        self.reference_package = reference_package
        self.reference_dir = _package_dir(reference_package)
        self.used: list[str] = []  # what ran, each with the route through the notebook's functions that reached it
        self.seen: set[str] = set()
        self.threads = threads  # False: the caller sets the hook in new threads itself

    def fresh(self) -> "CallWatcher":
        """A watcher for another call: the same forbidden callables (resolved once), nothing seen yet."""
        watcher = object.__new__(CallWatcher)
        watcher.__dict__.update(self.__dict__, used=[], seen=set())
        return watcher

    def __call__(self, frame: types.FrameType, event: str, arg: Any) -> None:
        if event == "c_call":
            name = self.builtins.get(id(arg))
            if name is None and self.methods and isinstance(getattr(arg, "__self__", None), torch.Tensor):
                name = self.methods.get(arg.__name__)
        elif event == "call":
            code = frame.f_code
            name = self.codes.get(code)
            if code in self.conditions and not _set(frame.f_locals.get(self.conditions[code])):
                return
            if name is None and self.reference_dir and code.co_filename.startswith(self.reference_dir):
                name = f"the reference package {self.reference_package!r}"
        else:
            return
        if name is not None and name not in self.seen:
            self.seen.add(name)
            self.used.append(name + _route(frame))


    def __enter__(self) -> "CallWatcher":
        self._previous = sys.getprofile(), threading.getprofile()
        sys.setprofile(self)
        if self.threads:
            threading.setprofile(self)
        return self

    def __exit__(self, *exc: Any) -> None:
        sys.setprofile(self._previous[0])
        if self.threads:
            threading.setprofile(self._previous[1])


class TorchCallCounter(TorchFunctionMode):
    """Counts the top-level PyTorch calls made while it is active, and the largest tensor they return.

    A function mode sees every call of a torch function, Tensor method or operator made from Python; the calls
    that one makes inside (F.softplus's own operations, say) run with the mode set aside and are not counted.
    So a scan over L steps in O(log L) rounds makes a number of calls that grows with log L, a loop over t one
    that grows with L, whatever the speed of the machine: complexity graded without a clock.
    """

    def __init__(self, tally: dict | None = None):
        super().__init__()
        # shared with the counters of the threads the counted call starts (``for_thread``): function modes are per
        # thread, so each thread needs a mode of its own, and they all count into one tally
        self.tally = tally if tally is not None else {"calls": 0, "names": set(), "largest": 0}

    def for_thread(self) -> "TorchCallCounter":
        """A counter for another thread, counting into this one's tally."""
        return TorchCallCounter(self.tally)

    @property
    def calls(self) -> int:
        return self.tally["calls"]

    @property
    def names(self) -> set[str]:
        return self.tally["names"]

    @property
    def largest(self) -> int:
        return self.tally["largest"]

    def __torch_function__(self, func, types, args=(), kwargs=None):
        tally = self.tally
        tally["calls"] += 1
        tally["names"].add(str(getattr(func, "__name__", func)))
        result = func(*args, **(kwargs or {}))
        for value in result if isinstance(result, (tuple, list)) else (result,):
            if isinstance(value, torch.Tensor):
                tally["largest"] = max(tally["largest"], value.numel())
        return result

    def summary(self) -> dict:
        """What it counted, as plain data (it crosses from the answer worker to the checker)."""
        return {"calls": self.calls, "names": sorted(self.names), "largest": self.largest}

