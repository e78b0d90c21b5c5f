"""Plain data across the grading pipe (grading.instructor.verdicts.wire), checked against local computation.

Two Peers talk over OS pipes from two threads, as the checker and the worker do over a process
boundary: what comes back must equal what was sent, gradients through a remote call must equal
the local ones, and nothing but plain data may cross.
"""
import os
import threading

import numpy as np
import pytest
import torch

from grading.instructor.verdicts.wire import ChangedInPlace, Opaque, Peer, PipeClosed, RemoteError


class _Answering(Peer):
    """The far side: answers calls to its named functions until the pipe closes."""

    def __init__(self, reader, writer, functions):
        super().__init__(reader, writer)
        self.functions = functions

    def resolve(self, message):
        return self.functions[message["handle"]]


@pytest.fixture
def far(request):
    """A Peer whose calls are answered by ``functions`` in another thread."""
    functions = request.param if hasattr(request, "param") else {}
    to_far, from_near = os.pipe()
    to_near, from_far = os.pipe()
    near = Peer(os.fdopen(to_near, "rb", buffering=0), os.fdopen(from_near, "wb"))
    answering = _Answering(os.fdopen(to_far, "rb"), os.fdopen(from_far, "wb"), functions)

    def serve():
        try:
            while True:
                answering.answer(*answering.receive())
        except PipeClosed:
            pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    near.functions = functions
    yield near
    near.writer.close()
    thread.join(timeout=5)


def identity(*args):
    return args


@pytest.mark.parametrize("far", [{"identity": identity}], indirect=True)
def test_values_and_tensors_cross_unchanged(far):
    expanded = torch.tensor([[1.5], [2.5]]).expand(2, 3)
    values = (None, True, 3, -2.5, "text", [1, (2, 3)], {"a": 1, 2: "b"}, {4, 5}, frozenset({6}), range(1, 7, 2),
              torch.Size([2, 3]), torch.float64, torch.device("cpu"), torch.tensor(7.0), torch.zeros(0, 3),
              torch.tensor([True, False]), torch.arange(6, dtype=torch.int64).view(2, 3)[:, ::2], expanded,
              torch.randn(2, 2, dtype=torch.float64), torch.nn.Linear(2, 1).state_dict())
    back = far.call("identity", values, {})
    for sent, got in zip(values, back):
        assert type(got) is type(sent)
        if isinstance(sent, torch.Tensor):
            assert got.dtype == sent.dtype and got.shape == sent.shape and torch.equal(got, sent)
        elif isinstance(sent, dict) and sent and isinstance(next(iter(sent.values())), torch.Tensor):
            assert list(got) == list(sent) and all(torch.equal(got[k], sent[k]) for k in sent)
        else:
            assert got == sent


class _Sly(torch.Tensor):
    def __eq__(self, other):
        return True


@pytest.mark.parametrize("far", [{"sly": lambda: (torch.ones(2).as_subclass(_Sly), object())}], indirect=True)
def test_objects_of_other_types_come_back_as_opaque_values_that_equal_nothing(far):
    tensor, thing = far.call("sly", (), {})
    assert isinstance(tensor, Opaque) and isinstance(thing, Opaque)
    assert "_Sly" in tensor.kind and tensor != tensor and thing != thing


class _LyingFloat(float):
    def __eq__(self, other):
        return True

    __hash__ = float.__hash__


@pytest.mark.parametrize("far", [{"floats": lambda: (np.float64(0.0125), _LyingFloat(2.0), [np.float64(-1.5)])}],
                         indirect=True)
def test_a_float_of_a_subclass_crosses_as_its_value(far):
    """numpy.float64 is a float (warmup_rate may return one): its value crosses as a plain float, and a subclass's
    own methods (a lying __eq__) stay behind."""
    rate, lying, listed = far.call("floats", (), {})
    assert type(rate) is float and rate == 0.0125
    assert type(lying) is float and lying == 2.0 and lying != 3.0
    assert type(listed[0]) is float and listed == [-1.5]


def draw(n, generator, options):
    return torch.randn(n, generator=generator), torch.rand(1, generator=options["generator"])


@pytest.mark.parametrize("far", [{"draw": draw}], indirect=True)
def test_a_generator_comes_back_advanced_by_what_the_far_side_drew(far):
    """A generator crosses as a copy; once the call returns, the caller's generator is where the far side's copy
    ended, as after a local call: a test can tell how many numbers an answer drew, and one that restores its
    generator's state draws the same numbers again."""
    mine, nested, local = (torch.Generator().manual_seed(5) for _ in range(3))
    nested.manual_seed(6)
    values, extra = far.call("draw", (3, mine, {"generator": nested}), {})
    assert torch.equal(values, torch.randn(3, generator=local))
    assert torch.equal(mine.get_state(), local.get_state())
    assert torch.equal(far.call("draw", (2, mine, {"generator": nested}), {})[0], torch.randn(2, generator=local))
    assert not torch.equal(nested.get_state(), torch.Generator().manual_seed(6).get_state())
    assert torch.equal(extra, torch.rand(1, generator=torch.Generator().manual_seed(6)))


def lstm_like(x, w):
    return torch.tanh(x @ w.T).sum(-1), {"aux": x * 2, "count": 3}


@pytest.mark.parametrize("far", [{"f": lstm_like}], indirect=True)
def test_gradients_flow_back_through_a_remote_call(far):
    x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    w = torch.randn(5, 4, dtype=torch.float64, requires_grad=True)
    (out, extra), (out_local, extra_local) = far.call("f", (x, w), {}), lstm_like(x, w)
    weights = torch.randn(3, dtype=torch.float64)
    got = torch.autograd.grad((out * weights).sum() + extra["aux"].sum(), (x, w))
    expected = torch.autograd.grad((out_local * weights).sum() + extra_local["aux"].sum(), (x, w))
    for a, e in zip(got, expected):
        torch.testing.assert_close(a, e)
    assert extra["count"] == 3
    with torch.no_grad():
        assert not far.call("f", (x, w), {})[0].requires_grad


@pytest.mark.parametrize("far", [{"f": lambda x: x.detach() * 2}], indirect=True)
def test_a_detached_result_has_no_gradient_as_it_would_locally(far):
    x = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="does not require grad"):
        torch.autograd.grad(far.call("f", (x,), {}).sum(), x)


@pytest.mark.parametrize("far", [{"apply": lambda step, x: step(step(x) + 1)}], indirect=True)
def test_callables_are_called_back_with_gradients(far):
    layer = torch.nn.Linear(3, 3).double()
    x = torch.randn(2, 3, dtype=torch.float64, requires_grad=True)
    got = far.call("apply", (layer, x), {})
    torch.testing.assert_close(got, layer(layer(x) + 1))
    (grad,) = torch.autograd.grad(got.sum(), x)
    (expected,) = torch.autograd.grad(layer(layer(x) + 1).sum(), x)
    torch.testing.assert_close(grad, expected)
    assert far.call("apply", (torch.relu, torch.tensor([-1.0])), {}).tolist() == [1.0]  # torch's own by name


@pytest.mark.parametrize("far", [{"boom": lambda: 1 / 0}], indirect=True)
def test_an_error_on_the_far_side_names_its_kind(far):
    with pytest.raises(RemoteError) as error:
        far.call("boom", (), {})
    assert error.value.kind == "ZeroDivisionError"


def scale_in_place(grads, factor):
    for g in grads:
        g.mul_(factor)
    return grads


@pytest.mark.parametrize("far", [{"scale": scale_in_place}], indirect=True)
def test_arguments_changed_in_place_change_on_the_callers_side_too(far):
    grads, untouched = [torch.ones(2), torch.full((3,), 2.0)], torch.zeros(1)
    returned = far.call("scale", (grads + [untouched], 3.0), {})
    assert grads[0].tolist() == [3.0, 3.0] and grads[1].tolist() == [6.0, 6.0, 6.0] and untouched.tolist() == [0.0]
    assert [r.tolist() for r in returned[:2]] == [g.tolist() for g in grads]


def append_in_place(ids, table):
    ids.append(99)
    table["new"] = [ids[0]]
    return len(ids)


@pytest.mark.parametrize("far", [{"append": append_in_place}], indirect=True)
def test_lists_and_dicts_changed_in_place_change_on_the_callers_side_too(far):
    ids, table, kept = [1, 2], {"old": 0}, [7]
    assert far.call("append", (ids, table), {}) == 3 and far.call("append", (kept, {}), {}) == 2
    assert ids == [1, 2, 99] and table == {"old": 0, "new": [1]} and kept == [7, 99]


def poison(x, ids):
    x.fill_(float("nan"))
    return x


@pytest.mark.parametrize("far", [{"poison": poison, "append": append_in_place}], indirect=True)
def test_the_checker_keeps_its_arguments_and_hears_of_an_in_place_change(far):
    """The checker's side (mirrors_changes=False): its tensors and lists stay as the test made them, so the
    oracles that read them afterwards compute from pristine inputs; a tensor, list or dict changed in place fails
    the call, which says which kind it changed."""
    far.mirrors_changes = False
    x, ids, table = torch.ones(3), [1, 2], {}
    with pytest.raises(ChangedInPlace, match="^changed 1 of the tensors it was given in place$"):
        far.call("poison", (x, ids), {})
    with pytest.raises(ChangedInPlace, match="^changed 2 of the lists, dicts or sets it was given in place$"):
        far.call("append", (ids, table), {})
    assert x.tolist() == [1.0, 1.0, 1.0] and ids == [1, 2] and table == {}
