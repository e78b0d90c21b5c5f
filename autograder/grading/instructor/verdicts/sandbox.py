"""The OS-level sandbox every process that runs a student's code is started in.

With bubblewrap (``bwrap``, Debian/Ubuntu package ``bubblewrap``; ``.ci/run`` installs it) the
process sees only the operating system's programs and libraries, Python, this environment's
installed packages and the folders it is given read-only; it has its own empty /tmp, no
network, no other processes, and runs as nobody; its /tmp holds at most ``TMP_BYTES``. The course's repository (solutions/, the
reference package, the gradebook, other students' files) is simply not there.

Where bubblewrap cannot run (not installed, or user namespaces disabled), the process starts
unsandboxed with a warning, and only the answer worker's own audit hook stands in for it
(best-effort: the student's code shares that process). ``GRADING_SANDBOX=off`` asks for that
explicitly; ``GRADING_SANDBOX=required`` refuses to grade without the sandbox.
"""
import functools
import glob
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

_SYSTEM = ("/usr", "/etc/alternatives", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d")
_MERGED = ("bin", "lib", "lib64", "sbin")  # /bin -> /usr/bin on merged-/usr systems; real folders elsewhere
TMP_BYTES = 256 * 2**20  # the sandbox's /tmp (RAM-backed): a write past it fails with ENOSPC, the machine keeps its RAM
FILE_BYTES = 64 * 2**20  # the largest file an answer worker may write (its RLIMIT_FSIZE: past it, EFBIG)


class SandboxUnavailable(RuntimeError):
    """GRADING_SANDBOX=required, and bubblewrap cannot run here."""


def _python_roots() -> list[str]:
    roots = {sys.base_prefix, sys.prefix, os.path.dirname(os.path.realpath(sys.executable))}
    return sorted(r for r in roots if not any(r != o and r.startswith(o + os.sep) for o in roots))


def _base_arguments(bwrap: str) -> list[str]:
    args = [bwrap, "--die-with-parent", "--new-session", "--unshare-all", "--uid", "65534", "--gid", "65534",
            "--proc", "/proc", "--dev", "/dev", "--size", str(TMP_BYTES), "--tmpfs", "/tmp", "--chdir", "/tmp", "--clearenv",
            "--setenv", "HOME", "/tmp", "--setenv", "PATH", "/usr/bin:/bin"]
    for path in _SYSTEM:
        args += ["--ro-bind-try", path, path]
    for name in _MERGED:
        path = Path("/") / name
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            args += ["--ro-bind", str(path), str(path)]
    for root in _python_roots():
        args += ["--ro-bind", root, root]
    for device in glob.glob("/dev/nvidia*"):  # the GPU, where there is one
        args += ["--dev-bind", device, device]
    return args


@functools.cache
def bubblewrap() -> str | None:
    """The bwrap program when it can start a sandbox here, else None."""
    mode = os.environ.get("GRADING_SANDBOX", "auto")
    bwrap = shutil.which("bwrap") if mode != "off" else None
    if bwrap:
        probe = subprocess.run([*_base_arguments(bwrap), "--", sys.executable, "-I", "-c", "pass"],
                               capture_output=True, timeout=60)
        if probe.returncode != 0:
            bwrap = None
    if bwrap is None and mode == "required":
        raise SandboxUnavailable("GRADING_SANDBOX=required, but bubblewrap (bwrap) cannot start a sandbox here")
    if bwrap is None and mode != "off":
        warnings.warn("bubblewrap (bwrap) is not available: students' code runs without the OS sandbox "
                      "(install the 'bubblewrap' package)", stacklevel=2)
    return bwrap


def sandboxed(argv: list[str], readable: list[Path] = (), env: dict[str, str] | None = None,
              only_tmp_writable: bool = False) -> list[str]:
    """``argv`` wrapped in the sandbox, seeing ``readable`` read-only and the variables ``env``; with
    ``only_tmp_writable`` nothing but /tmp can be written (the sandbox's root and /dev are read-only too)."""
    bwrap = bubblewrap()
    if bwrap is None:
        return argv
    args = _base_arguments(bwrap)
    for path in readable:
        args += ["--ro-bind", str(path), str(path)]
    if only_tmp_writable:
        args += ["--remount-ro", "/dev", "--remount-ro", "/"]
    for name, value in (env or {}).items():
        args += ["--setenv", name, value]
    return [*args, "--", *argv]
