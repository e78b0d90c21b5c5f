"""call_counted in the grading path: the sandboxed answer worker counts the PyTorch calls of a student's function
(grading.student.watch.TorchCallCounter) and the checker's test sees the counts, so that a loop over t fails a
complexity test with the message that says so (chapter 14's causal_conv_fft and linear_scan); no clock involved."""
import pytest
import torch

from grading.instructor.verdicts.answers import Answers, RemoteFunction
from grading.student.checks import ExerciseFailure, call, call_counted, expect_calls_grow_slowly
from grading.student.rules import FORBIDDEN, REFERENCE_PACKAGE

ANSWERS = '''
import torch

def loop_scan(a, b):
    h, out = torch.zeros_like(b[:, 0]), []
    for t in range(a.shape[1]):
        h = a[:, t] * h + b[:, t]
        out.append(h)
    return torch.stack(out, dim=1)

def doubling_scan(a, b):
    offset = 1
    while offset < a.shape[1]:
        a_before = torch.cat([torch.ones_like(a[:, :offset]), a[:, :-offset]], dim=1)
        b_before = torch.cat([torch.zeros_like(b[:, :offset]), b[:, :-offset]], dim=1)
        a, b = a_before * a, a * b_before + b
        offset *= 2
    return b
'''


@pytest.fixture(scope="module")
def answers():
    with Answers([("answers", ANSWERS, "answer")], FORBIDDEN, REFERENCE_PACKAGE, []) as started:
        yield started


def counts_at(function, lengths=(64, 4096)) -> dict[int, dict]:
    return {L: call_counted(function, torch.full((1, L, 1), 0.5), torch.ones(1, L, 1))[1] for L in lengths}


def test_the_worker_counts_a_loop_over_t_and_the_test_fails_saying_so(answers):
    counts = counts_at(RemoteFunction(answers, "loop_scan"))
    assert counts[4096]["calls"] > 40 * counts[64]["calls"]
    with pytest.raises(ExerciseFailure, match="A Python loop over t"):
        expect_calls_grow_slowly(counts, 3, "loop_scan(a, b)")


def test_a_doubling_scan_passes_and_its_result_comes_back(answers):
    scan = RemoteFunction(answers, "doubling_scan")
    result, counted = call_counted(scan, torch.full((1, 5, 1), 0.5), torch.ones(1, 5, 1))
    torch.testing.assert_close(result[0, :, 0], torch.tensor([1.0, 1.5, 1.75, 1.875, 1.9375]))
    assert "cat" in counted["names"] and counted["largest"] == 5
    expect_calls_grow_slowly(counts_at(scan), 3, "doubling_scan(a, b)")
    assert torch.equal(call(scan, torch.ones(1, 2, 1), torch.ones(1, 2, 1)), torch.tensor([[[1.0], [2.0]]]))


def test_counted_in_the_students_own_kernel_too():
    namespace = {"__name__": "__main__"}
    exec(ANSWERS, namespace)  # noqa: S102 - defined as a notebook cell would, in __main__
    with pytest.raises(ExerciseFailure, match=r"made \d+ PyTorch calls at L = 64 and \d+ at L = 4096"):
        expect_calls_grow_slowly(counts_at(namespace["loop_scan"]), 3, "loop_scan(a, b)")
    expect_calls_grow_slowly(counts_at(namespace["doubling_scan"]), 3, "doubling_scan(a, b)")
