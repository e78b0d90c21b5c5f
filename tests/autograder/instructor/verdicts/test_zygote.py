"""The zygote that forks each student's answer worker (grading.instructor.verdicts.zygote): one student's worker
leaves nothing for the next one, and a student who stops or kills the zygote costs time, never a score."""
import contextlib
import json
import os
import subprocess
import sys
import time

import pytest

from grading.instructor.verdicts import sandbox, zygote
from grading.instructor.verdicts.answers import AnswerCrashed, AnswerError, Answers, AnswerTimeout, RemoteFunction
from grading.instructor.verdicts.wire import RemoteError
from grading.instructor.verdicts.checker import PRIVATE_PACKAGES
from grading.instructor.verdicts.zygote import SHARED, ForkedWorker

STUDENT = """
import os, signal
def leave_traces():
    torch.left_behind = "answers"
    os.makedirs("/tmp/notes/deep")
    open("/tmp/notes/deep/answers.txt", "w").write("def f(x): ...")
    os.chmod("/tmp/notes", 0o500)
    return sorted(os.listdir("/tmp"))
def traces():
    return getattr(torch, "left_behind", None), sorted(os.listdir("/tmp"))
def write_outside_tmp():
    for path in ("/notes.txt", "/dev/shm/notes.txt"):
        try:
            open(path, "w").write("answers")
            return path
        except OSError:
            pass
def read_the_zygote():
    readable = []
    for name in ("mem", "environ", "fd/0"):
        try:
            open(f"/proc/{os.getppid()}/{name}", "rb").read(1)
            readable.append(name)
        except OSError:
            pass
    return readable
def signal_the_zygote(stop):
    os.kill(os.getppid(), signal.SIGSTOP if stop else signal.SIGKILL)
    return True
def double(x):
    return 2 * x
"""


@pytest.fixture
def forked():
    if sandbox.bubblewrap() is None:
        pytest.skip("bubblewrap cannot start a sandbox here")
    SHARED.prepare()

    def student() -> Answers:
        answers = Answers([("answers", "import torch\n" + STUDENT, "answer")], {}, "seqmodels", PRIVATE_PACKAGES,
                          load_timeout=60)
        answers.start()
        assert isinstance(answers.process, ForkedWorker)
        return answers

    yield student
    SHARED.close()


def test_the_next_student_finds_no_object_file_or_folder_of_the_last_one_from_the_same_zygote(forked):
    with forked() as first:
        untouched = first.call("traces", (), {})
        assert untouched[0] is None and SHARED.folder.name in untouched[1]
        assert "notes" in first.call("leave_traces", (), {})
        zygote = SHARED.process.pid
    SHARED.prepare()
    with forked() as second:
        assert second.call("traces", (), {}) == untouched
    assert SHARED.process.pid == zygote, "the zygote failed to clean up after a student and was replaced"


def test_a_student_can_write_only_in_tmp_and_cannot_read_the_zygote(forked):
    with forked() as answers:
        assert answers.call("write_outside_tmp", (), {}) is None
        assert answers.call("read_the_zygote", (), {}) == []


@pytest.mark.parametrize("stop", [True, False], ids=["stopped", "killed"])
def test_a_zygote_stopped_or_killed_by_a_student_is_replaced_before_the_next(forked, stop, monkeypatch):
    monkeypatch.setattr(zygote, "REPLY_TIMEOUT", 2)
    with forked() as first:
        with contextlib.suppress(AnswerCrashed):  # the sandbox ends with the zygote, and the worker in it
            first.call("signal_the_zygote", (stop,), {})
        stopped_process = SHARED.process.pid
    SHARED.prepare()
    assert SHARED.process.pid != stopped_process
    with forked() as second:
        assert second.call("double", (21,), {}) == 42


# issue 33: what one worker leaves in the kernel, the caps it runs under, and the forbidden calls it cannot hide
CAPPED = """
import ctypes, os, time
def make_segment():
    return ctypes.pythonapi.shmget(0x5EC9, 4096, 0o1600) != -1
def find_segment():
    return ctypes.pythonapi.shmget(0x5EC9, 0, 0) != -1
def fork():
    return ctypes.pythonapi.fork()
def fill_tmp(megabytes):
    for number in range(megabytes // 50):
        with open(f"/tmp/filler{number}", "wb") as filler:
            filler.write(bytes(50 * 2**20))
def spin():
    while True:
        pass
def cpu_limit():
    import resource
    used = resource.getrusage(resource.RUSAGE_SELF)
    return resource.getrlimit(resource.RLIMIT_CPU)[0] - (used.ru_utime + used.ru_stime)
def host_environment():
    try:  # the sandbox's init: another user namespace's process, whose environment holds nothing of the host's
        environment = open("/proc/1/environ", "rb").read().decode()
    except PermissionError:
        return []
    return [e for e in environment.split("\\0") if "/work" in e or "/root" in e]
def lerp_through_map(s, x, g):
    return next(map(torch.lerp, [s], [x], [g]))
def lerp_through_ops(s, x, g):
    return torch.ops.aten.lerp(s, x, g)
"""


@pytest.fixture
def capped(forked):
    def student(cpu_s: float = 0) -> Answers:
        answers = Answers([("answers", "import torch\n" + CAPPED, "answer")], {"lerp_through_map": ("torch.lerp",),
                          "lerp_through_ops": ("torch.lerp",)}, "seqmodels", PRIVATE_PACKAGES, load_timeout=60,
                          cpu_s=cpu_s)
        answers.start()
        return answers

    return student


def test_a_worker_leaves_no_ipc_object_starts_no_process_and_cannot_fill_the_machines_memory(capped):
    with capped() as answers:
        assert answers.call("make_segment", (), {}) and answers.call("find_segment", (), {})
        answers.new_cell()  # the next test cell's worker, as the next student's: a fresh fork
        assert answers.call("find_segment", (), {}) is False
        assert answers.call("host_environment", (), {}) == []
        with pytest.raises(AnswerError, match="(?s)Errno 28.*256 MB in all in /tmp"):
            RemoteFunction(answers, "fill_tmp")(300)
        with pytest.raises(AnswerCrashed, match="start another process"):
            answers.call("fork", (), {})


def test_forbidden_calls_are_trapped_whatever_route_and_the_cell_limit_is_cpu_time(capped):
    import torch

    with capped(cpu_s=1) as answers:
        for route in ("map", "ops"):
            with pytest.raises(RemoteError, match="torch.lerp") as caught:
                answers.call(f"lerp_through_{route}", (torch.zeros(2), torch.ones(2), torch.ones(2)), {})
            assert caught.value.kind == "Forbidden"
        assert 0 < answers.call("cpu_limit", (), {}) <= 2  # the cell's second of CPU time, rounded up
        answers.deadline = time.monotonic() + 300  # the wall clock would wait far longer
        with pytest.raises(AnswerTimeout) as stopped:
            answers.call("spin", (), {})
        assert stopped.value.cpu


# issue 41: the course server's grading workers run as its grader account, not root
AS_ANOTHER_ACCOUNT = """
import json, sys
from grading.instructor.verdicts.answers import Answers
from grading.instructor.verdicts.checker import PRIVATE_PACKAGES
from grading.instructor.verdicts.zygote import SHARED, ForkedWorker
SHARED.prepare()
answers = Answers([("answers", "import torch\\n" + sys.stdin.read(), "answer")], {}, "seqmodels", PRIVATE_PACKAGES,
                  load_timeout=60)
answers.start()
print(json.dumps([isinstance(answers.process, ForkedWorker), answers.call("double", (21,), {}),
                  answers.call("read_the_zygote", (), {})]))
answers.close()
SHARED.close()
"""


def test_a_grading_process_of_another_account_than_root_forks_workers_that_load_answers():
    """bubblewrap started by an account other than root: each fork still makes its own IPC namespace (its user
    namespace's maps written while it is briefly dumpable), and cannot read the zygote."""
    if os.geteuid() != 0:
        pytest.skip("needs root to run the grading process as another account (as any other account, the tests "
                    "above run it so)")
    if sandbox.bubblewrap() is None:
        pytest.skip("bubblewrap cannot start a sandbox here")
    done = subprocess.run(["runuser", "-u", "nobody", "--", sys.executable, "-c", AS_ANOTHER_ACCOUNT], input=STUDENT,
                          capture_output=True, text=True, cwd="/", timeout=300)
    assert done.returncode == 0, f"grading as nobody failed: {done.stderr.strip()[-600:]}"
    assert json.loads(done.stdout) == [True, 42, []], f"as nobody: forked, double(21), zygote readable: {done.stdout}"
