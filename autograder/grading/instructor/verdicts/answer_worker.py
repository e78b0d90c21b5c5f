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
import contextlib
import importlib
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

from raised import your_line  # noqa: E402
from watch import CallWatcher, TorchCallCounter  # noqa: E402
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


_counting: dict = {"counter": None}  # the counter of the graded call now running (AnswerPeer.resolve), for new threads


def _profiled_thread_starts() -> None:
    """Every new thread (``threading``'s and raw ``_thread`` ones) runs under the profile hook of its starter."""
    start = _thread.start_new_thread

    def start_new_thread(function, args, kwargs=None):
        hook = sys.getprofile()  # the forbidden-call watcher, while a graded function runs
        counter = _counting["counter"]  # the PyTorch calls of the graded call now running, if counted

        def run(*a, **k):
            with _switching:
                sys.setprofile(hook)
            _enter_trap()  # torch's function modes are per thread
            if counter is None:
                return function(*a, **k)
            with counter.for_thread():  # a loop moved into a thread still counts
                return function(*a, **k)

        return start(run, args, kwargs or {})

    _thread.start_new_thread = start_new_thread
    threading._start_new_thread = start_new_thread  # the name threading.Thread.start uses




def _capped() -> None:
    """The kernel's caps on this worker, set before any answer runs, which it cannot raise again: no core files,
    files of at most GRADING_FILE_BYTES (a write past it fails with EFBIG instead of killing the worker), at most
    GRADING_CPU_HARD_S seconds of CPU time in all (loading included), and no new process (a seccomp filter:
    threads only)."""
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    file_bytes = int(os.environ.get("GRADING_FILE_BYTES", "0") or 0) or resource.RLIM_INFINITY
    resource.setrlimit(resource.RLIMIT_FSIZE, (file_bytes, file_bytes))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    cpu_s = int(os.environ.get("GRADING_CPU_HARD_S", "0") or 0)
    if cpu_s > 0:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s + 1))
    _no_new_processes()


def _no_new_processes() -> None:
    """A seccomp filter: fork, vfork and clone without CLONE_THREAD raise SIGSYS, which ends the worker (the
    checker says why), and clone3 fails with ENOSYS (so that the C library falls back to clone, which the filter
    can read). Threads still start; processes never do, however an answer reaches the system call (ctypes, a
    library). Linux x86-64 and arm64."""
    import ctypes
    import platform

    numbers = {"x86_64": (0xC000003E, 56, (57, 58)), "aarch64": (0xC00000B7, 220, ())}.get(platform.machine())
    if numbers is None:
        return
    arch, clone, forks = numbers
    allow, trap, enosys = 0x7FFF0000, 0x00030000, 0x00050000 | 38  # trap: SIGSYS ends the worker
    program = [(0x20, 0, 0, 4), (0x15, 1, 0, arch), (0x06, 0, 0, allow), (0x20, 0, 0, 0),  # arch; else allow
               (0x35, 0, 1, 0x40000000), (0x06, 0, 0, trap),  # x86-64's x32 numbers: none is needed
               (0x15, 0, 1, 435), (0x06, 0, 0, enosys)]  # clone3
    for number in forks:
        program += [(0x15, 0, 1, number), (0x06, 0, 0, trap)]
    program += [(0x15, 1, 0, clone), (0x06, 0, 0, allow),  # anything but clone
                (0x20, 0, 0, 16), (0x45, 1, 0, 0x00010000), (0x06, 0, 0, trap), (0x06, 0, 0, allow)]  # CLONE_THREAD

    class Filter(ctypes.Structure):
        _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte), ("k", ctypes.c_uint)]

    class Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(Filter))]

    filters = (Filter * len(program))(*[Filter(*f) for f in program])
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong]
    if libc.prctl(38, 1, None, 0, 0) != 0 or libc.prctl(22, 2, ctypes.byref(Program(len(program), filters)), 0, 0):
        raise OSError(ctypes.get_errno(), "the answer worker could not install its seccomp filter")


def _cpu_budget():
    """Start the CPU-time limit of one test cell (RLIMIT_CPU: SIGXCPU ends the worker past it), once, at the
    cell's first call; the functions are taken now, before any answer could replace them."""
    setrlimit, getrusage, started = resource.setrlimit, resource.getrusage, []

    def start(seconds: float) -> None:
        if started or seconds <= 0:
            return
        started.append(True)
        used = getrusage(resource.RUSAGE_SELF)
        limit = int(used.ru_utime + used.ru_stime + seconds) + 1
        hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
        try:
            setrlimit(resource.RLIMIT_CPU, (limit if hard < 0 else min(limit, hard), hard))
        except (ValueError, OSError):  # an answer lowered the hard limit while loading: that one applies
            pass

    return start


_start_cpu_budget = _cpu_budget()


def _forbidden_trap():
    """A TorchFunctionMode that sees every call of a torch function, whatever route reached it (a C caller
    such as map() or functools.partial, any Python thread, torch.ops.aten, torch._VF, a module's forward), and
    fails the ones forbidden to the graded function now running: the first line against forbidden calls (the
    profile watcher, grading.student.watch, is the second). Its state lives in this closure. An answer that
    switches torch's function modes off on purpose (torch._C.DisableTorchFunction) passes it: what it then calls
    from Python the watcher still sees, and the sandbox bounds the rest."""
    from torch.overrides import TorchFunctionMode

    state = {"by_id": {}, "by_op": {}, "caught": []}

    class Trap(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            name = state["by_id"].get(id(func))
            if name is None and isinstance(func, (torch._ops.OpOverload, torch._ops.OpOverloadPacket)):
                packet = func.overloadpacket if isinstance(func, torch._ops.OpOverload) else func
                name = state["by_op"].get(packet.__name__.lstrip("_"))
            if name is not None:
                state["caught"].append(name)
                if threading.current_thread() is not threading.main_thread():
                    _thread.interrupt_main()  # the graded call may be waiting for this thread: end it, say why
                raise Blocked(f"{name} is not allowed in this exercise")
            return func(*args, **(kwargs or {}))

    trap = Trap()

    def arm(watcher: "CallWatcher | None") -> list[str]:
        """Forbid what ``watcher`` forbids (None: nothing) from now on; the forbidden calls caught so far."""
        caught, state["caught"] = state["caught"], []
        state["by_id"], state["by_op"] = {}, {}
        if watcher is not None:
            targets = [(_resolve_quietly(d), d) for d in (*watcher.builtins.values(), *watcher.methods.values())]
            # a call forbidden only with some argument ("f(arg)") is the profile watcher's to judge: it sees the arguments
            unconditional = {code: d for code, d in watcher.codes.items() if code not in watcher.conditions}
            targets += [(f, d) for f, d in _python_functions(unconditional)]
            state["by_id"] = {id(t): d for t, d in targets if t is not None}
            state["by_op"] = {d.rpartition(".")[2].lstrip("_"): d for _, d in targets}
        return caught

    def enter() -> None:
        trap.__enter__()

    return arm, enter, lambda: bool(state["caught"])


def _resolve_quietly(dotted: str):
    owner, _, name = dotted.rpartition(".")
    target = torch.Tensor if owner == "torch.Tensor" else None
    if target is None:
        try:
            target = importlib.import_module(owner)
        except ImportError:
            return None
    return getattr(target, name, None)


def _python_functions(codes: dict) -> list:
    """The Python functions (torch.nn.functional's, say) whose code objects a watcher forbids."""
    return [(_resolve_quietly(d), d) for d in set(codes.values()) if not d.split(".")[-1][:1].isupper()]


_arm_trap, _enter_trap, _trap_caught = _forbidden_trap()


class AnswerPeer(Peer):
    def __init__(self, reader, writer):
        super().__init__(reader, writer)
        self.namespace: dict = {"__name__": "__main__", "__builtins__": __builtins__}
        self.watchers: dict[str | None, CallWatcher] = {}  # per graded function, and for any other
        self.sources: dict[str, str] = {}  # each loaded chunk's code, by label: the line an error names
        self.handlers["load"] = self._load
        self.cpu_s = 0.0  # CPU seconds for the test cell this worker serves (0: no limit of the cell's own)
        self.counter: TorchCallCounter | None = None  # counts the PyTorch calls of the call now running, when asked

    def _load(self, message: dict, buffers: list, out: list) -> dict:
        if not self.watchers:  # resolved before any answer runs, so that an answer cannot hide what they look for
            reference = message["reference_package"]
            self.watchers = {name: CallWatcher(tuple(f), reference, threads=False)
                             for name, f in message["forbidden"].items()}
            self.watchers[None] = CallWatcher((), reference, threads=False)
        _PRIVATE_PACKAGES.update(message["private_packages"])
        self.cpu_s = float(message.get("cpu_s", 0))
        before = _library_snapshot()
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
        after = _library_snapshot()  # what an answer added (``import torch.distributions``, say) is no patch
        changed = sorted(name for name, value in before.items() if after.get(name) != value)
        return {"names": names, "failed": failed, "tampered": changed[:20]}

    def resolve(self, message: dict):
        handle = message["handle"]
        if not isinstance(handle, str):
            return super().resolve(message)
        if handle not in self.namespace:
            raise NameError(f"{handle} is not defined")
        function = self.namespace[handle]
        template = self.watchers.get(handle, self.watchers[None])
        self.counter = TorchCallCounter() if message.get("count") else None  # the checker asked for the count
        _counting["counter"] = self.counter

        def watched(*args, **kwargs):
            _start_cpu_budget(self.cpu_s)
            watcher = template.fresh()
            with _quiet(), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                with _switching:
                    watcher.__enter__()
                _arm_trap(template)
                try:
                    with self.counter if self.counter is not None else contextlib.nullcontext():
                        result = function(*args, **kwargs)
                except (Blocked, KeyboardInterrupt):  # the trap's interrupt, where the call was caught in a thread
                    if not _trap_caught():
                        raise
                    result = None  # a forbidden call the trap stopped: reported below
                except Exception as error:  # noqa: BLE001 - the same error, which names the answer's line
                    if not _trap_caught():
                        raise _at_your_line(error, self.sources) from None
                    result = None
                finally:
                    caught = _arm_trap(None)
                    with _switching:
                        watcher.__exit__()
            used = [*watcher.used, *(name for name in caught if name not in watcher.used)]
            if used:
                raise Forbidden(", ".join(used))
            return result

        return watched

    def _answer_call(self, message: dict, buffers: list, out: list) -> dict:
        reply = super()._answer_call(message, buffers, out)
        if message.get("count"):  # best-effort, as the forbidden calls: the answer shares this process
            reply["counted"] = self.counter.summary()
        return reply


def _at_your_line(error: Exception, sources: dict[str, str]) -> Exception:
    """``error`` with the innermost line of the answers that it passed through: the checker gets the class
    name and the message only (grading.instructor.verdicts.wire), so the line travels in the message."""
    def line_of(frame, number: int) -> tuple[str, str] | None:
        label = frame.f_code.co_filename[1:-1]
        if label not in sources:
            return None
        lines = sources[label].splitlines()
        return label, lines[number - 1].strip() if 0 < number <= len(lines) else ""

    where = your_line(error.__traceback__, line_of)
    if not where:
        return error
    located = type(type(error).__name__, (Exception,), {})  # named as the error: the checker reads the name
    return located(f"{_text(error)}\n  {where}")


_WATCHED_LIBRARIES = ("torch", "torch.nn", "torch.nn.functional", "torch.Tensor", "torch.autograd", "math", "builtins")


def _library_snapshot() -> dict[str, int]:
    """What the libraries the tests use hold, by identity: an answer that patches one is tampering, and the
    instructor is told (it earns nothing here: the checker's own libraries are untouched)."""
    snapshot = {}
    for home in _WATCHED_LIBRARIES:
        owner = torch.Tensor if home == "torch.Tensor" else sys.modules.get(home)
        for name, value in list(vars(owner).items() if owner is not None else ()):
            if not name.startswith("__"):
                snapshot[f"{home}.{name}"] = id(value)
    return snapshot


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
    _capped()
    _enter_trap()
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
    child, ended = None, None
    while True:
        try:
            packet, fds, _, _ = socket.recv_fds(control, 65536, 2)
        except OSError:
            packet = b""
        if not packet:  # the grading process that asked has ended: so does the last worker, then this process
            if child is not None:
                _end(child, contained)
            return
        request = json.loads(packet)
        if child is not None:
            ended = _end(child, contained)
            child = None
        if request["op"] == "fork":
            zygote = os.getpid()
            child = os.fork()
            if child == 0:
                control.close()
                _dies_with(zygote)
                os.setsid()
                if contained:
                    _own_ipc_namespace()
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
        control.send(json.dumps({"pid": child, "signal": ended}).encode())
        ended = None


def _dies_with(parent: int) -> None:
    """In a fresh fork of ``parent``: SIGKILL when the parent ends, killed or not (PR_SET_PDEATHSIG), or at once
    if it has already."""
    import ctypes

    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def _own_ipc_namespace() -> None:
    """A fresh IPC namespace (System V shared memory, semaphores, message queues) for this worker alone, in a user
    namespace of its own (which it needs to have one; its user id inside stays the sandbox's): nothing the last
    student's worker left there can be read by this one, and nothing this one leaves outlives it."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(0x10000000 | 0x08000000) != 0:  # CLONE_NEWUSER | CLONE_NEWIPC
        raise OSError(ctypes.get_errno(), "the answer worker could not get an IPC namespace of its own")
    uid, gid = os.getuid(), os.getgid()
    # Not dumpable (the zygote's state, inherited), a process's /proc/self files belong to the root of the user
    # namespace its memory was made in, or to the machine's root where that one has none: bubblewrap started by
    # root maps that to the worker's own kernel uid, started by another account (the course server's grader) it
    # does not, and the worker could not write its own maps. It is dumpable for these three writes only: nothing
    # that could reach it runs then (the last worker was killed; no other sandbox sees this PID namespace).
    libc.prctl(4, 1, 0, 0, 0)  # PR_SET_DUMPABLE
    for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1")):
        with open(f"/proc/self/{name}", "w") as table:
            table.write(text)
    _not_dumpable()


def _end(child: int, contained: bool) -> int | None:
    """Kill the last worker (in the sandbox: every process but this one and its init) and, in the sandbox, empty
    /tmp, where it may have left files; the zygote stops (and is replaced) if anything is left. The signal that
    ended the worker, if one did before it was killed (SIGXCPU: its CPU time ran out), else SIGKILL or None."""
    try:
        if contained:
            os.kill(-1, signal.SIGKILL)
        else:
            os.killpg(child, signal.SIGKILL)
    except ProcessLookupError:
        pass
    signalled = None
    try:
        _, status = os.waitpid(child, 0)
        signalled = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
    except ChildProcessError:
        pass
    if contained:
        _clear("/tmp", _mount_points())
    return signalled


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

        # what the instructor's setup cells import, which every test cell's fresh worker loads again: about 1 s of
        # Matplotlib per test cell otherwise; where it does not import, the setup cell meets the error and says so
        os.environ.setdefault("MPLBACKEND", "Agg")
        try:
            import matplotlib.pyplot  # noqa: F401
        except Exception:  # noqa: BLE001, S110 - reported by the setup cell that needs it, not by the zygote
            pass

        # the modules of the forbidden calls, which each worker's first load resolves (zygote.forbidden_modules)
        for module in filter(None, sys.argv[3].split(",") if len(sys.argv) > 3 else ()):
            try:
                importlib.import_module(module)
            except Exception:  # noqa: BLE001, S112 - a library the sandbox does not show: its calls stay unresolved
                continue

        # "contained": started by the sandbox in a PID namespace of its own, where it is process 2 under bwrap's init
        contained = os.environ.get("GRADING_CONTAINED") == "1" and os.getpid() == 2 and os.getppid() == 1
        serve_forks(socket.socket(fileno=int(sys.argv[2])), contained)
    else:
        main()
