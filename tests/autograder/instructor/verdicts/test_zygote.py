"""The zygote that forks each student's answer worker (grading.instructor.verdicts.zygote): one student's worker
leaves nothing for the next one, and a student who stops or kills the zygote costs time, never a score."""
import contextlib

import pytest

from grading.instructor.verdicts import sandbox, zygote
from grading.instructor.verdicts.answers import AnswerCrashed, Answers
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
