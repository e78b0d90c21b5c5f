"""The runtime guard of a notebook being autograded.

Installed by the setup cell (importing grading.checks) when nbgrader autogrades, before
any answer runs. Two parts:

* an audit hook (PEP 578), which Python code cannot remove, blocks what no answer
  needs and what could change grading: other processes, signals, the network, the
  gradebook and the course's files, tracing hooks, the garbage collector's object
  lists, and - when called straight from a notebook cell - ``exec``/``eval``/``compile``
  and frame objects;
* a snapshot of the objects the tests rely on (``torch``, ``numpy``, ``math``,
  ``builtins``, the reference package, the check helpers), which :func:`changed`
  compares against; the helpers refuse to grade once something was replaced.

Every blocked attempt is recorded; the grader reads :func:`report` after the last cell
and scores every test 0 when there is any (grading.execute).
"""
import builtins
import importlib
import json
import math
import os
import sys

import numpy
import torch

from grading.rules import REFERENCE_PACKAGE

BLOCKED_ALWAYS = {
    "subprocess.Popen": "start another program", "os.system": "start another program",
    "os.exec": "start another program", "os.spawn": "start another program",
    "os.posix_spawn": "start another program", "os.fork": "start another process",
    "os.forkpty": "start another process", "pty.spawn": "start another program",
    "os.kill": "send a signal to a process", "os.killpg": "send a signal to a process",
    "signal.pthread_kill": "send a signal to a process",
    "socket.connect": "use the network", "socket.sendto": "use the network", "socket.sendmsg": "use the network",
    "socket.bind": "use the network", "socket.getaddrinfo": "use the network",
    "sqlite3.connect": "open a database (the gradebook)",
    "gc.get_objects": "search the interpreter's objects", "gc.get_referrers": "search the interpreter's objects",
    "gc.get_referents": "search the interpreter's objects", "sys._current_frames": "inspect the grader's frames",
    "sys.addaudithook": "install an audit hook", "ctypes.dlopen": "load native code",
    "ctypes.dlsym": "load native code", "ctypes.addressof": "read raw memory", "ctypes.string_at": "read raw memory",
    "ctypes.PyObj_FromPtr": "read raw memory", "ctypes.cdata": "read raw memory",
}
TRACING = {"sys.settrace": "install a tracing hook", "sys.setprofile": "install a profiling hook"}
FROM_A_CELL = {  # fine inside libraries; never needed by an answer directly
    "exec": "run code built at run time (exec/eval)", "compile": "compile code at run time",
    "sys._getframe": "inspect the grader's frames", "object.__getattr__": "inspect the grader's frames",
    "object.__setattr__": "change a function's code or a class's attributes",
}
FILE_EVENTS = ("open", "os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.truncate", "os.chmod", "os.symlink",
               "os.link", "os.utime", "os.chown", "shutil.rmtree", "shutil.copyfile", "shutil.move")
_FRAME_ATTRIBUTES = {"tb_frame", "gi_frame", "cr_frame", "ag_frame", "f_back", "f_code", "gi_code", "__code__"}
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


class GradingGuardError(PermissionError):
    """An answer tried something the grader does not allow while it grades."""


GUARD_LINE = "GRADING-GUARD "  # starts the report that grading.execute reads (its GUARD_LINE)
_attempts: list[str] = []
_snapshot: dict[str, tuple[object, dict]] = {}
_state = {"installed": False, "busy": False, "protected": (), "course": "", "cells": (), "main": None}
_VOLATILE = {("builtins", "input"), ("torch", "manual_seed")}  # replaced by ipykernel per request; by torch._dynamo
_HELPERS = ("call", "expect_equal", "expect_tensor", "passed")
_CHECKS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "checks.py")


def _cell_file(filename: str) -> bool:
    """Whether ``filename`` holds code typed into the notebook (an answer, or a cell the student added)."""
    return filename.startswith(_state["cells"]) or filename.startswith("<ipython-input-")


def _inside(path: str, roots: tuple[str, ...]) -> bool:
    return any(path == root or path.startswith(root + os.sep) for root in roots)


def _file_problem(event: str, args: tuple) -> str | None:
    path = args[0] if args else None
    if isinstance(path, int) or path is None:
        return None
    try:
        path = os.path.realpath(os.fsdecode(path))
    except (TypeError, ValueError):
        return None
    if event == "open":
        mode, flags = args[1] if len(args) > 1 else "r", args[2] if len(args) > 2 else 0
        writes = any(c in str(mode or "") for c in "wax+") or bool((flags or 0) & _WRITE_FLAGS)
    else:
        writes = True
    if writes and _inside(path, (_state["course"], *_state["protected"])):
        return f"change {path} in the course folder"
    if not writes and _inside(path, _state["protected"]) and not _inside(path, (os.getcwd(),)):
        return f"read {path} (the course's solutions or grades)"
    return None


def _audit(event: str, args: tuple) -> None:
    if _state["busy"]:  # the checks below raise audit events of their own
        return
    _state["busy"] = True
    try:
        caller = sys._getframe(1).f_code.co_filename  # the code that raised the event
        problem = _problem(event, args, caller)
    finally:
        _state["busy"] = False
    if problem is None:
        return
    message = f"the answer tried to {problem} ({event}), which is not allowed while grading"
    # Python caching bytecode in the course folder is blocked too, but is not the answer's doing
    if message not in _attempts and not (event in FILE_EVENTS and caller.startswith("<frozen importlib")):
        _attempts.append(message)
    raise GradingGuardError(message)


def _problem(event: str, args: tuple, caller: str) -> str | None:
    if event in BLOCKED_ALWAYS:
        return BLOCKED_ALWAYS[event]
    if event in TRACING:
        return None if caller == _CHECKS_FILE else TRACING[event]
    if event in FROM_A_CELL:
        if not _cell_file(caller) or event == "object.__getattr__" and args[1] not in _FRAME_ATTRIBUTES:
            return None
        return FROM_A_CELL[event]
    if event in FILE_EVENTS:
        return _file_problem(event, args)
    return None


def _watched() -> dict[str, object]:
    importlib.import_module(REFERENCE_PACKAGE)  # before any answer runs, so that its pristine state is known
    reference = [m for name, m in sys.modules.items() if name.split(".")[0] == REFERENCE_PACKAGE]
    grading = [m for name, m in sys.modules.items() if name.startswith("grading.")]
    watched = {m.__name__: m for m in (torch, torch.nn, torch.nn.functional, numpy, math, builtins, *reference, *grading)}
    watched.update({f"{cls.__module__}.{cls.__qualname__}": cls for cls in (torch.Tensor, torch.nn.Module)})
    return watched


def install(protected: tuple[str, ...], course: str) -> None:
    """Take the snapshot and start the audit hook (once per kernel)."""
    if _state["installed"]:
        return
    try:
        from ipykernel.compiler import get_tmp_directory
        cells = (get_tmp_directory(),)
    except ImportError:  # not in a Jupyter kernel
        cells = ()
    _state.update(installed=True, course=os.path.realpath(course), cells=cells, main=sys.modules["__main__"],
                  protected=tuple(os.path.realpath(p) for p in protected if p))
    for name, thing in _watched().items():  # private names change by themselves (builtins._, input), ours do not
        _snapshot[name] = (thing, {k: v for k, v in vars(thing).items()
                                   if name.startswith("grading.") or not k.startswith("_") and (name, k) not in _VOLATILE})
    sys.addaudithook(_audit)


def changed() -> list[str]:
    """What the tests rely on that now points to something else (empty when nothing changed)."""
    found = []
    for name, (thing, before) in _snapshot.items():
        now = vars(thing)
        found += [f"{name}.{key}" for key, value in before.items() if now.get(key, before) is not value]
    if _state["main"] is not None:  # the names the test cells call
        main, helpers = vars(_state["main"]), _snapshot["grading.checks"][1]
        expected = {**{name: helpers[name] for name in _HELPERS}, "torch": torch, "np": numpy}
        found += [f"the notebook's {name}" for name, value in expected.items() if name in main and main[name] is not value]
    return found


def problems() -> list[str]:
    """Every blocked attempt, then everything replaced, as sentences (empty while grading can be trusted)."""
    return [*_attempts, *(f"{name} was replaced" for name in changed())]


def report() -> None:
    """Print what the grader must know, as one line the grading preprocessor reads."""
    print(GUARD_LINE + json.dumps({"installed": _state["installed"], "problems": problems()}))
