"""The sandboxed answer worker: holds one student's answer cells and runs their functions on request.

    python -I answer_worker.py      (started by grading.instructor.verdicts.answers, inside grading.instructor.verdicts.sandbox)
    python -I answer_worker.py --zygote FD     (grading.instructor.verdicts.zygote: forks a fresh worker per student)

It trusts nothing and is trusted with nothing: it never sees a test, an expected value, the
reference package or the course's files (the sandbox shows it only Python and torch), and
all it sends back is plain data (grading.instructor.verdicts.wire). What it checks on its own side
is best-effort, since the student's code shares its process: the forbidden calls of each
exercise (grading.student.watch, threads included) and an audit hook that refuses other
programs, the network and native-code loading. The trusted checker decides every score.

Protocol (after the wire's framing): the first message is ``load`` with the chunks of code
to run (the student's answer cells, and the definitions of the notebook's other cells);
the reply names the functions defined and the chunks that failed. Then ``call`` requests
name an answer's function; ``vjp`` and ``release`` serve gradients (grading.instructor.verdicts.wire).
"""
import _thread
import io
import json
import os
import resource
import signal
import socket
import sys
import threading
import traceback
import warnings
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the sandbox shows this folder: wire and watch only
import torch  # noqa: E402 - after the path, before any answer runs

from watch import CallWatcher  # noqa: E402
from wire import Peer, PipeClosed  # noqa: E402

_BLOCKED = {"subprocess.Popen": "start another program", "os.system": "start another program",
            "os.exec": "start another program", "os.spawn": "start another program",
            "os.posix_spawn": "start another program", "os.fork": "start another process",
            "os.forkpty": "start another process", "socket.connect": "use the network",
            "socket.bind": "use the network", "ctypes.dlopen": "load native code",
            "sys.addaudithook": "install an audit hook", "gc.get_objects": "search the interpreter's objects",
            "gc.get_referrers": "search the interpreter's objects", "gc.get_referents": "search the interpreter's objects",
            "sys._current_frames": "inspect other threads' frames"}
_HOOKS = {"sys.setprofile": "switch the forbidden-call watch off", "sys.settrace": "install a tracing hook"}


class Blocked(PermissionError):
    """An answer tried something no answer needs while it is graded."""


def _auditor():
    """The audit hook, and the switch that lets only the worker itself set profile hooks (hidden in a closure)."""
    own = {"switching": False}

    def audit(event: str, args: tuple) -> None:
        if event in _BLOCKED:
            raise Blocked(f"answers may not {_BLOCKED[event]} ({event})")
        if event in _HOOKS and not own["switching"]:
            raise Blocked(f"answers may not {_HOOKS[event]} ({event})")
        if event == "import" and args and str(args[0]).split(".")[0] in _PRIVATE_PACKAGES:
            raise Blocked(f"answers may not import {args[0]!r}")

    class switching:
        def __enter__(self):
            own["switching"] = True

        def __exit__(self, *exc):
            own["switching"] = False

    return audit, switching()


_audit, _switching = _auditor()
_PRIVATE_PACKAGES: set[str] = set()


def _profiled_thread_starts() -> None:
    """Every new thread (``threading``'s and raw ``_thread`` ones) runs under the profile hook of its starter."""
    start = _thread.start_new_thread

    def start_new_thread(function, args, kwargs=None):
        hook = sys.getprofile()  # the forbidden-call watcher, while a graded function runs

        def run(*a, **k):
            with _switching:
                sys.setprofile(hook)
            return function(*a, **k)

        return start(run, args, kwargs or {})

    _thread.start_new_thread = start_new_thread
    threading._start_new_thread = start_new_thread  # the name threading.Thread.start uses


class AnswerPeer(Peer):
    def __init__(self, reader, writer):
        super().__init__(reader, writer)
        self.namespace: dict = {"__name__": "__main__", "__builtins__": __builtins__}
        self.watchers: dict[str | None, CallWatcher] = {}  # per graded function, and for any other
        self.sources: dict[str, str] = {}  # each loaded chunk's code, by label: the line an error names
        self.handlers["load"] = self._load

    def _load(self, message: dict, buffers: list, out: list) -> dict:
        if not self.watchers:  # resolved before any answer runs, so that an answer cannot hide what they look for
            reference = message["reference_package"]
            self.watchers = {name: CallWatcher(tuple(f), reference, threads=False)
                             for name, f in message["forbidden"].items()}
            self.watchers[None] = CallWatcher((), reference, threads=False)
        _PRIVATE_PACKAGES.update(message["private_packages"])
        failed = []
        for label, source, kind in message["chunks"]:
            self.sources[label] = source
            try:
                with _quiet():
                    exec(compile(source, f"<{label}>", "exec"), self.namespace)  # noqa: S102 - the answers
            except BaseException as error:  # noqa: BLE001 - SystemExit too: the cell failed, the rest still loads
                if kind != "given":  # a demo's definitions may need the course's packages, which are not here
                    failed.append([label, f"{type(error).__name__}: {_text(error)}"])
        names = [name for name, value in self.namespace.items() if callable(value) and not name.startswith("__")]
        return {"names": names, "failed": failed}

    def resolve(self, message: dict):
        handle = message["handle"]
        if not isinstance(handle, str):
            return super().resolve(message)
        if handle not in self.namespace:
            raise NameError(f"{handle} is not defined")
        function = self.namespace[handle]
        template = self.watchers.get(handle, self.watchers[None])

        def watched(*args, **kwargs):
            watcher = template.fresh()
            with _quiet(), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                with _switching:
                    watcher.__enter__()
                try:
                    result = function(*args, **kwargs)
                except Exception as error:  # noqa: BLE001 - the same error, which names the answer's line
                    raise _at_your_line(error, self.sources) from None
                finally:
                    with _switching:
                        watcher.__exit__()
            if watcher.used:
                raise Forbidden(", ".join(watcher.used))
            return result

        return watched


def _at_your_line(error: Exception, sources: dict[str, str]) -> Exception:
    """``error`` with the innermost line of the answers that it passed through: the checker gets the class
    name and the message only (grading.instructor.verdicts.wire), so the line travels in the message."""
    where, frames = None, error.__traceback__
    while frames is not None:
        code = frames.tb_frame.f_code
        if code.co_filename[1:-1] in sources:
            where = code.co_filename[1:-1], frames.tb_lineno, code.co_name
        frames = frames.tb_next
    if where is None:
        return error
    label, number, function = where
    lines = sources[label].splitlines()
    line = lines[number - 1].strip() if 0 < number <= len(lines) else ""
    located = type(type(error).__name__, (Exception,), {})  # named as the error: the checker reads the name
    return located(f"{_text(error)}\n  at your line, in {function} (cell {label}): {line}")


class Forbidden(Exception):
    """The answer used a call its exercise forbids (the message names them)."""


class _quiet:
    """Whatever an answer prints goes nowhere: the protocol owns the real stdout."""

    def __enter__(self):
        self._redirects = redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO())
        for redirect in self._redirects:
            redirect.__enter__()

    def __exit__(self, *exc):
        for redirect in reversed(self._redirects):
            redirect.__exit__(*exc)


def _text(error: BaseException) -> str:
    try:
        return str(error)[:500]
    except Exception:  # noqa: BLE001
        return "<unprintable>"


def main() -> None:
    # the protocol gets private copies of stdin/stdout; file descriptors 0-2 go to /dev/null for the answers
    reader, writer = os.fdopen(os.dup(0), "rb"), os.fdopen(os.dup(1), "wb")
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    megabytes = int(os.environ.get("GRADING_MEMORY_LIMIT_MB", "0") or 0)
    if megabytes > 0 and not torch.cuda.is_available():  # CUDA reserves more address space than it uses
        resource.setrlimit(resource.RLIMIT_AS, (megabytes * 2**20,) * 2)
    torch.set_num_threads(1)
    _profiled_thread_starts()
    sys.addaudithook(_audit)
    peer = AnswerPeer(reader, writer)
    try:
        while True:
            message, buffers = peer.receive()
            peer.answer(message, buffers)
    except PipeClosed:
        pass
    except BaseException:  # noqa: BLE001 - the checker sees the pipe close and scores what is left 0
        traceback.print_exc(file=sys.__stderr__)


def _not_dumpable() -> None:
    """No process of the same user (another student's code) may read or write this one's memory, open its file
    descriptors or attach a debugger to it (prctl PR_SET_DUMPABLE 0, inherited by the forks)."""
    import ctypes

    ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0)


def serve_forks(control: socket.socket, contained: bool) -> None:
    """The zygote (grading.instructor.verdicts.zygote): PyTorch and this module are imported once, and each student's
    worker is a fresh fork of this process, which never runs an answer. Requests come as JSON packets:
    ``fork`` (with the two pipe ends of the new worker's stdin and stdout, and its environment) replies
    with its pid; ``end`` ends it. Before a new worker starts, everything the last one left behind is
    killed: in the sandbox's own PID namespace (``contained``) that is every process but this one."""
    _not_dumpable()
    child = None
    while True:
        try:
            packet, fds, _, _ = socket.recv_fds(control, 65536, 2)
        except OSError:
            return
        if not packet:
            return
        request = json.loads(packet)
        if child is not None:
            _end(child, contained)
            child = None
        if request["op"] == "fork":
            child = os.fork()
            if child == 0:
                control.close()
                os.setsid()
                os.dup2(fds[0], 0)
                os.dup2(fds[1], 1)
                for fd in fds:
                    os.close(fd)
                os.environ.update(request["env"])
                try:
                    main()
                finally:
                    os._exit(0)
            for fd in fds:
                os.close(fd)
        control.send(json.dumps({"pid": child}).encode())


def _end(child: int, contained: bool) -> None:
    """Kill the last worker (in the sandbox: every process but this one and its init) and, in the sandbox, empty
    /tmp, where it may have left files; the zygote stops (and is replaced) if anything is left."""
    try:
        if contained:
            os.kill(-1, signal.SIGKILL)
        else:
            os.killpg(child, signal.SIGKILL)
    except ProcessLookupError:
        pass
    try:
        os.waitpid(child, 0)
    except ChildProcessError:
        pass
    if contained:
        _clear("/tmp", _mount_points())


def _mount_points() -> set[str]:
    with open("/proc/self/mountinfo") as table:
        return {line.split()[4] for line in table}


def _clear(folder: str, mounts: set[str]) -> None:
    """Remove everything in ``folder`` but the folders bound read-only there (this program's, Python's when it
    lives under /tmp) and the folders that lead to them."""
    for entry in os.scandir(folder):
        if entry.path in mounts:
            continue
        if any(mount.startswith(entry.path + "/") for mount in mounts):
            _clear(entry.path, mounts)
        else:
            _remove(entry.path)


def _remove(path: str) -> None:
    if os.path.isdir(path) and not os.path.islink(path):
        os.chmod(path, 0o700)  # the worker ran as this user: whatever it locked, this process may unlock
        for entry in os.scandir(path):
            _remove(entry.path)
        os.rmdir(path)
    else:
        os.unlink(path)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--zygote"]:
        import torch.fx.experimental.symbolic_shapes  # noqa: F401 - torch._check's first call imports SymPy (0.5 s)

        # "contained": started by the sandbox in a PID namespace of its own, where it is process 2 under bwrap's init
        contained = os.environ.get("GRADING_CONTAINED") == "1" and os.getpid() == 2 and os.getppid() == 1
        serve_forks(socket.socket(fileno=int(sys.argv[2])), contained)
    else:
        main()
