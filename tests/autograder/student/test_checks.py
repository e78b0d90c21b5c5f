"""The test-cell helpers: forbidden shortcuts are caught however they are reached, and messages say what failed."""
import sys

import pytest
import torch
import torch.nn.functional as F

import seqmodels
from grading.student.checks import (AnswerError, ExerciseFailure, call, expect_close, expect_equal, expect_tensor,
                                    tolerance)


def in_notebook(fn):
    """Make ``fn`` look like a function written in a notebook cell."""
    fn.__module__ = "__main__"
    return fn


one_hot_alias = F.one_hot


def helper_that_cheats(ids, V):
    return F.one_hot(ids, V)


@pytest.mark.parametrize("onehot", [
    lambda ids, V: F.one_hot(ids, V).float(),
    lambda ids, V: one_hot_alias(ids, V).float(),
    lambda ids, V: torch.nn.functional.one_hot(ids, V).float(),
    lambda ids, V: helper_that_cheats(ids, V).float(),
    lambda ids, V: seqmodels.onehot(ids, V),
], ids=["direct", "alias", "full-path", "via-helper", "reference-package"])
def test_forbidden_calls_are_caught_however_they_are_reached(onehot):
    onehot.__name__ = "onehot"
    with pytest.raises(ExerciseFailure, match="onehot used .*does not allow"):
        call(in_notebook(onehot), torch.tensor([1, 2]), 3)
    assert sys.getprofile() is None


@pytest.mark.parametrize("forbidden", [
    lambda ids, E: F.embedding(ids, E),
    lambda ids, E: torch.embedding(E, ids),
    lambda ids, E: torch.nn.Embedding.from_pretrained(E)(ids),
], ids=["F.embedding", "torch.embedding", "nn.Embedding"])
def test_every_forbidden_embedding_route_is_named(forbidden):
    forbidden.__name__ = "embed"
    with pytest.raises(ExerciseFailure, match="embed used "):
        call(in_notebook(forbidden), torch.tensor([1]), torch.randn(3, 2))


@pytest.mark.parametrize("name, forbidden", [
    ("sigmoid", lambda x: torch.sigmoid(x)),
    ("sigmoid", lambda x: x.sigmoid()),
    ("sigmoid", lambda x: F.sigmoid(x)),
    ("sigmoid", lambda x: torch.special.expit(x)),
    ("sigmoid", lambda x: torch.nn.Sigmoid()(x)),
    ("softplus", lambda x: F.softplus(x)),
    ("softplus", lambda x: torch.logaddexp(torch.zeros_like(x), x)),
    ("softmax", lambda x, dim=-1: x.softmax(dim)),
    ("softmax", lambda x, dim=-1: F.softmax(x, dim)),
    ("softmax", lambda x, dim=-1: torch.exp(x - x.logsumexp(dim, keepdim=True))),
    ("softmax", lambda x, dim=-1: torch.exp(x - torch.logsumexp(x, dim, keepdim=True))),
    ("log_softmax", lambda x, dim=-1: F.log_softmax(x, dim)),
    ("log_softmax", lambda x, dim=-1: x.log_softmax(dim)),
    ("log_softmax", lambda x, dim=-1: torch.log(torch.softmax(x, dim))),
    ("linear", lambda u, W, b=None: F.linear(u, W, b)),
    ("linear", lambda u, W, b=None: torch.addmm(b, u, W.T)),
    ("cosine_similarity", lambda u, v: F.cosine_similarity(u, v, dim=-1)),
], ids=lambda v: v if isinstance(v, str) else "")
def test_chapter_02_and_03_shortcuts_are_caught_as_functions_and_as_tensor_methods(name, forbidden):
    forbidden.__name__ = name
    args = {"linear": (torch.randn(2, 3), torch.randn(4, 3), torch.randn(4)),
            "cosine_similarity": (torch.randn(2, 3), torch.randn(2, 3))}.get(name, (torch.randn(2, 3),))
    with pytest.raises(ExerciseFailure, match=f"{name} used "):
        call(in_notebook(forbidden), *args)


def test_honest_activations_built_from_exp_and_log_pass():
    @in_notebook
    def softmax(x, dim=-1):
        e = torch.exp(x - x.amax(dim, keepdim=True))
        return e / e.sum(dim, keepdim=True)

    torch.testing.assert_close(call(softmax, torch.tensor([[0.0, 0.0]])), torch.tensor([[0.5, 0.5]]))


def test_an_honest_answer_passes_and_returns_its_result():
    @in_notebook
    def onehot(ids, V):
        return (ids.unsqueeze(-1) == torch.arange(V)).float()

    assert call(onehot, torch.tensor([2]), 3).tolist() == [[0, 0, 1]]


def test_forbidden_calls_of_other_exercises_are_allowed():
    @in_notebook
    def pad_batch(seqs, pad_id=0):
        return F.one_hot(torch.tensor(seqs[0]), 3)

    assert call(pad_batch, [[1]]).shape == (1, 3)


def test_an_imported_function_is_not_the_students_work():
    with pytest.raises(ExerciseFailure, match="comes from the module 'seqmodels"):
        call(seqmodels.embed, torch.tensor([1]), torch.randn(3, 2))


def test_the_untouched_stub_says_it_is_not_implemented():
    @in_notebook
    def encode(tokens, vocab, unk="[UNK]"):
        raise NotImplementedError()

    with pytest.raises(ExerciseFailure, match="encode is not implemented yet"):
        call(encode, ["a"], {})
    assert sys.getprofile() is None


def test_a_crash_in_student_code_propagates_and_the_watcher_is_removed():
    @in_notebook
    def decode(ids, vocab):
        return 1 / 0

    with pytest.raises(AnswerError, match=r"^ZeroDivisionError: division by zero\n  in the call decode\(ids=\[1\], vocab=\{\}\)$"):
        call(decode, [1], {})  # told as the feedback tells it (grading.student.raised)
    assert sys.getprofile() is None


def test_something_not_callable_is_reported():
    with pytest.raises(ExerciseFailure, match="should be a function"):
        call(None)


def test_expect_equal_names_the_call_and_the_first_difference():
    with pytest.raises(ExerciseFailure) as failure:
        expect_equal({"a": 0, "b": 2}, {"a": 0, "b": 1}, "build_vocab(corpus)", hint="ties!")
    assert "build_vocab(corpus) returned the wrong mapping (first difference at key 'b')" in str(failure.value)
    assert "expected: {'a': 0, 'b': 1}" in str(failure.value) and "Hint: ties!" in str(failure.value)
    with pytest.raises(ExerciseFailure, match="first difference at position 1"):
        expect_equal([1, 2, 3], [1, 5, 3], "encode(x)")
    with pytest.raises(ExerciseFailure, match="returned a tuple; expected a list"):
        expect_equal((1,), [1], "encode(x)")


@pytest.mark.parametrize("got, message", [
    ([0.0, 1.0], "returned a list; expected a torch.Tensor"),
    (torch.zeros(3), r"shape \(3,\); expected shape \(2,\)"),
    (torch.zeros(2, dtype=torch.float64), "returned dtype torch.float64; expected torch.float32"),
    (torch.tensor([0.0, 0.5]), r"largest error 0.5 at index \(1,\): expected 1, got 0.5; the test allows 1e-06 \+ "
                               r"1e-05 x \|expected\|"),
    (torch.tensor([0.0, float("nan")]), r"largest error inf at index \(1,\)"),
])
def test_expect_tensor_says_what_is_wrong(got, message):
    with pytest.raises(ExerciseFailure, match=message):
        expect_tensor(got, torch.tensor([0.0, 1.0]), "onehot(ids, 2)")


@pytest.mark.parametrize("got, hint", [
    (torch.tensor([0.0, 0.5]), "VALUE"),
    (torch.zeros(3), "SHAPE"),
    (torch.tensor([0.0, 1.0], dtype=torch.float64), "keep the inputs' dtype"),
    (torch.tensor([0.0, 1.0], device="meta"), "on the inputs' device"),
], ids=["values", "shape", "dtype", "device"])
def test_each_failed_property_gets_its_own_hint_and_no_other(got, hint):
    """A dtype, device or shape mistake is not sent after the value hint, nor a value mistake after theirs."""
    with pytest.raises(ExerciseFailure) as failure:
        expect_tensor(got, torch.tensor([0.0, 1.0]), "f(x)", hint="VALUE", shape_hint="SHAPE")
    hints = [line for line in str(failure.value).splitlines() if line.startswith("Hint: ")]
    assert len(hints) == 1 and hint in hints[0] and failure.value.hint in hints[0], hints
    with pytest.raises(ExerciseFailure) as failure:
        expect_equal(1.0, 1, "count(x)", hint="VALUE", type_hint="TYPE")
    assert failure.value.hint == "TYPE" and "VALUE" not in str(failure.value)


def test_ipython_shows_a_failure_as_its_message_without_the_helpers_frames():
    failure = ExerciseFailure("f(x) returned wrong values.", "a hint")
    assert failure._render_traceback_()[1:] == ["ExerciseFailure: f(x) returned wrong values.\nHint: a hint"]


def test_expect_tensor_accepts_values_within_tolerance():
    expect_tensor(torch.tensor([1.0 + 1e-7]), torch.tensor([1.0]), "f(x)")
    expect_tensor(torch.tensor([1.004]), torch.tensor([1.0]), "f(x)", atol=0.005)
    expect_tensor(torch.tensor([1000.004]), torch.tensor([1000.0]), "f(x)", atol=0, rtol=5e-6)


@pytest.mark.parametrize("dtype, atol, rtol, applied", [
    (torch.float64, 1e-12, None, (1e-12, 0.0)),  # a test that states atol only gets no relative part
    (torch.float32, None, 1e-4, (0.0, 1e-4)),
    (torch.float32, 1e-5, 1e-3, (1e-5, 1e-3)),
    (torch.float64, None, None, (1e-12, 1e-12)),  # what states nothing gets its dtype's default
    (torch.float32, None, None, (1e-6, 1e-5)),
    (torch.float16, None, None, (1e-5, 1e-3)),
    (torch.int64, None, None, (0.0, 0.0)),
    (torch.bool, None, None, (0.0, 0.0)),
])
def test_the_tolerance_applied_is_the_one_stated_or_the_dtypes_default(dtype, atol, rtol, applied):
    assert tolerance(dtype, atol, rtol) == applied


def test_a_check_that_states_atol_only_applies_no_relative_tolerance():
    """allclose's own rtol=1e-5 used to widen atol=1e-12 to a relative error of 1e-5 on large values."""
    expected = torch.tensor([1000.0, 1.0], dtype=torch.float64)
    with pytest.raises(ExerciseFailure, match=r"largest error 1e-09 at index \(0,\).*allows 1e-12 \+ 0 x"):
        expect_tensor(expected + torch.tensor([1e-9, 0.0], dtype=torch.float64), expected, "f(x)", atol=1e-12)


def test_a_float64_check_rejects_float32_arithmetic():
    """The float64 default, and a stated float64 tolerance, catch values computed in float32 and cast back:
    a RoPE computing its angles in float32 (a relative error of some 1e-8 in sin and cos)."""
    positions, theta = torch.arange(4, dtype=torch.float64)[:, None], 500.0 ** -torch.linspace(0, 1, 3,
                                                                                                  dtype=torch.float64)
    exact = (positions * theta).sin()
    in_float32 = (positions.float() * theta.float()).sin().double()
    for atol in (None, 1e-12):
        with pytest.raises(ExerciseFailure, match="returned wrong values"):
            expect_tensor(in_float32, exact, "rope(<float64>)", atol=atol)
    expect_tensor(in_float32.float(), exact.float(), "rope(<float32>)")  # in float32 itself, it is right


class AlwaysEqual(dict):
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False


class LyingInt(int):
    def __eq__(self, other):
        return True

    __hash__ = int.__hash__


class LyingTensor(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return True if func is torch.allclose else super().__torch_function__(func, types, args, kwargs or {})


@pytest.mark.parametrize("liar", [AlwaysEqual(), [LyingInt(3)], {"a": LyingInt(0)}], ids=["dict", "list-item", "dict-value"])
def test_objects_with_a_lying_eq_do_not_pass(liar):
    expected = {"a": 1} if isinstance(liar, dict) else [4]
    with pytest.raises(ExerciseFailure, match="expected"):
        expect_equal(liar, expected, "build_vocab(corpus)")


def test_a_tensor_subclass_cannot_fake_a_comparison():
    with pytest.raises(ExerciseFailure, match="returned a LyingTensor; expected a torch.Tensor"):
        expect_tensor(torch.zeros(2).as_subclass(LyingTensor), torch.ones(2), "embed(ids, E)")


def test_patching_torch_allclose_after_the_setup_cell_changes_nothing(monkeypatch):
    monkeypatch.setattr(torch, "allclose", lambda *args, **kwargs: True)
    with pytest.raises(ExerciseFailure, match="wrong values"):
        expect_tensor(torch.zeros(2), torch.ones(2), "embed(ids, E)")


def test_the_standard_librarys_dicts_are_accepted_as_dicts():
    from collections import Counter, OrderedDict, defaultdict

    for kind in (OrderedDict, Counter, lambda pairs: defaultdict(int, pairs)):
        expect_equal(kind({"a": 0, "b": 1}), {"a": 0, "b": 1}, "build_vocab(corpus)")


def test_warnings_raised_by_an_answer_do_not_reach_stderr(capfd):
    @in_notebook
    def pad_batch(seqs, pad_id=0):
        return torch.tensor(torch.tensor(seqs[0]))  # legitimate, but PyTorch warns

    call(pad_batch, [[1]])
    assert "UserWarning" not in capfd.readouterr().err


def test_passed_names_what_passed_and_promises_more_tests(capsys, monkeypatch):
    from grading.student import checks

    monkeypatch.setattr(checks, "_stdout", sys.stdout)  # pytest swapped stdout after the module was imported
    assert checks.passed("Table F.1") is None
    assert capsys.readouterr().out == "✓ Table F.1: visible tests passed (more tests run when your notebook is graded)\n"


def _tf32_switches() -> dict:
    """Every TF32 switch torch has, by both interfaces (the per-operator one from torch 2.9 on)."""
    backends = torch.backends
    switches = {"cudnn.allow_tf32": backends.cudnn.allow_tf32, "matmul.allow_tf32": backends.cuda.matmul.allow_tf32,
                "float32_matmul_precision": torch.get_float32_matmul_precision()}
    for name, module, op in (("cudnn.conv", backends.cudnn, "conv"), ("cudnn.rnn", backends.cudnn, "rnn"),
                             ("cuda.matmul", backends.cuda, "matmul"), ("mkldnn.matmul", backends.mkldnn, "matmul")):
        if hasattr(getattr(module, op, None), "fp32_precision"):
            switches[name] = getattr(module, op).fp32_precision
    return switches


@pytest.mark.parametrize("matmul_precision", ["highest", "high"])
def test_full_precision_switches_tf32_off_inside_and_restores_every_switch(matmul_precision):
    """Works on a machine without CUDA too: the switches exist (and change nothing) there."""
    from grading.student.checks import full_precision

    old = torch.get_float32_matmul_precision()
    torch.set_float32_matmul_precision(matmul_precision)  # "high": a cell switched TF32 matmuls on
    try:
        before = _tf32_switches()
        assert before["cudnn.allow_tf32"] is True  # PyTorch's default: cuDNN uses TF32
        with full_precision():
            inside = _tf32_switches()
            x, w = torch.randn(2, 3, 5), torch.randn(4, 3, 1)
            expect_tensor(F.conv1d(x, w), torch.einsum("bcl,oc->bol", x, w[..., 0]), "a width-1 conv1d", atol=1e-5)
        assert _tf32_switches() == before
        with pytest.raises(KeyError), full_precision():  # restored after an error too
            raise KeyError("a failing test")
        assert _tf32_switches() == before
    finally:
        torch.set_float32_matmul_precision(old)
    assert inside["cudnn.allow_tf32"] is False and inside["matmul.allow_tf32"] is False
    assert inside["float32_matmul_precision"] == "highest"
    assert all(value == "ieee" for name, value in inside.items() if "." in name and "allow" not in name)


@pytest.mark.parametrize("forbidden", [
    lambda x, filters, bias: F.conv1d(x.transpose(1, 2), filters.permute(0, 2, 1), bias,
                                      padding=filters.shape[1] // 2).transpose(1, 2),
    lambda x, filters, bias: torch._convolution(
        x.transpose(1, 2), filters.permute(0, 2, 1), bias, [1], [filters.shape[1] // 2], [1], False, [0], 1,
        False, False, True, True).transpose(1, 2),
    lambda x, filters, bias: torch.conv_tbc(x.transpose(0, 1).contiguous(), filters.permute(1, 2, 0).contiguous(), bias,
                                            filters.shape[1] // 2).transpose(0, 1),
], ids=["F.conv1d", "torch._convolution", "torch.conv_tbc"])
def test_chapter_07_convolution_is_caught_by_the_ops_under_it_too(forbidden):
    forbidden.__name__ = "conv1d_same"
    x, filters, bias = torch.randn(2, 5, 3), torch.randn(4, 3, 3), torch.randn(4)
    with pytest.raises(ExerciseFailure, match="conv1d_same used "):
        call(in_notebook(forbidden), x, filters, bias)


def _pytorch_encoder_layer(x, mask, params, num_heads):
    layer = torch.nn.TransformerEncoderLayer(x.shape[-1], num_heads, params["linear1.weight"].shape[0], dropout=0.0,
                                             batch_first=True)
    layer.load_state_dict(params)
    return layer(x, src_key_padding_mask=~mask)


def _pytorch_decoder_layer(y, memory, y_mask, memory_mask, params, num_heads):
    layer = torch.nn.TransformerDecoderLayer(y.shape[-1], num_heads, params["linear1.weight"].shape[0], dropout=0.0,
                                             batch_first=True)
    layer.load_state_dict(params)
    return layer(y, memory, tgt_key_padding_mask=~y_mask, memory_key_padding_mask=~memory_mask)


def _attention_by_mha_forward(q, k, v, w_in, b_in, w_out, b_out, num_heads, key_mask=None, causal=False):
    out, _ = F.multi_head_attention_forward(q.transpose(0, 1), k.transpose(0, 1), v.transpose(0, 1), q.shape[-1],
                                            num_heads, w_in, b_in, None, None, False, 0.0, w_out, b_out,
                                            key_padding_mask=None if key_mask is None else ~key_mask, need_weights=False)
    return out.transpose(0, 1)


def _encoder_with_layer_norm(x, mask, params, num_heads):
    return torch.nn.functional.layer_norm(x, x.shape[-1:], params["norm1.weight"], params["norm1.bias"])


def _encode_with_pytorch_stack(ids, mask, embedding, blocks, num_heads):
    stack = torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(embedding.shape[1], num_heads, 16, dropout=0.0,
                                                                         batch_first=True), len(blocks),
                                        enable_nested_tensor=False)
    return stack(embedding[ids], src_key_padding_mask=~mask)


_D = 8
_ENCODER = torch.nn.TransformerEncoderLayer(_D, 2, 16, dropout=0.0, batch_first=True).state_dict()
_DECODER = torch.nn.TransformerDecoderLayer(_D, 2, 16, dropout=0.0, batch_first=True).state_dict()
_X, _MASK = torch.randn(2, 3, _D), torch.tensor([[True, True, True], [True, False, False]])
_MHA = torch.nn.MultiheadAttention(_D, 2, batch_first=True)
_MHA_WEIGHTS = (_MHA.in_proj_weight.detach(), _MHA.in_proj_bias.detach(), _MHA.out_proj.weight.detach(),
                _MHA.out_proj.bias.detach())


@pytest.mark.parametrize("name, forbidden, args", [
    ("position_wise_ffn", lambda x, W1, b1, W2, b2: F.linear(torch.relu(F.linear(x, W1, b1)), W2, b2),
     (_X, torch.randn(16, _D), torch.randn(16), torch.randn(_D, 16), torch.randn(_D))),
    ("attention_heads", lambda q, k, v, *w, key_mask=None, causal=False: _MHA(q, k, v, need_weights=False)[0],
     (_X, _X, _X, *_MHA_WEIGHTS, 2)),
    ("attention_heads", _attention_by_mha_forward, (_X, _X, _X, *_MHA_WEIGHTS, 2)),
    ("encoder_block", _pytorch_encoder_layer, (_X, _MASK, _ENCODER, 2)),
    ("encoder_block", _encoder_with_layer_norm, (_X, _MASK, _ENCODER, 2)),
    ("decoder_block", _pytorch_decoder_layer, (_X, _X, _MASK, _MASK, _DECODER, 2)),
    ("transformer_encode", _encode_with_pytorch_stack, (torch.tensor([[1, 2, 3]]), _MASK[:1], torch.randn(5, _D),
                                                        [_ENCODER], 2)),
], ids=lambda v: v if isinstance(v, str) else "")
def test_chapter_12_pytorchs_transformer_layers_attention_and_norms_are_caught(name, forbidden, args):
    forbidden.__name__ = name
    with torch.no_grad(), pytest.raises(ExerciseFailure, match=f"{name} used "):
        call(in_notebook(forbidden), *args)


def test_a_forbidden_call_reached_through_a_helper_names_the_route():
    namespace = {"__name__": "__main__", "F": F}
    exec("def scores(q, k):\n    return F.scaled_dot_product_attention(q, k, k)\n"  # noqa: S102 - a notebook's cells
         "def attention_heads(q, k):\n    return scores(q, k)\n"
         "def encoder_block(x):\n    return attention_heads(x, x)\n", namespace)
    with pytest.raises(ExerciseFailure, match=r"encoder_block used torch.nn.functional.scaled_dot_product_attention "
                                              r"\(through your attention_heads → scores\), which"):
        call(namespace["encoder_block"], torch.randn(1, 2, 4))


def _smoothed_by_hand(logits, targets, mask, epsilon):
    real = logits[mask]
    return (1 - epsilon) * F.cross_entropy(real, targets[mask]) - epsilon * real.log_softmax(-1).mean()


@pytest.mark.parametrize("answer, forbidden", [
    (_smoothed_by_hand, None),
    (lambda logits, targets, mask, e: (1 - e) * torch.nn.CrossEntropyLoss(label_smoothing=0.0)(logits[mask],
                                                                                               targets[mask])
     - e * logits[mask].log_softmax(-1).mean(), None),
    (lambda logits, targets, mask, e: F.cross_entropy(logits[mask], targets[mask], label_smoothing=e),
     "torch.nn.functional.cross_entropy with label_smoothing"),
    (lambda logits, targets, mask, e: F.cross_entropy(logits[mask], targets[mask], None, None, -100, None, "mean", e),
     "torch.nn.functional.cross_entropy with label_smoothing"),
    (lambda logits, targets, mask, e: torch.nn.CrossEntropyLoss(label_smoothing=e)(logits[mask], targets[mask]),
     "torch.nn.CrossEntropyLoss with label_smoothing"),
], ids=["plain-cross-entropy", "module-without-smoothing", "function", "positional", "module"])
def test_cross_entropy_is_forbidden_to_label_smoothed_nll_only_with_label_smoothing(answer, forbidden):
    """The syllabus forbids F.cross_entropy / nn.CrossEntropyLoss *with* label_smoothing: plain cross-entropy plus
    the smoothing term is a right answer."""
    answer.__name__ = "label_smoothed_nll"
    g = torch.Generator().manual_seed(0)
    logits, targets = torch.randn(2, 3, 5, generator=g), torch.randint(0, 5, (2, 3), generator=g)
    mask = torch.tensor([[True, True, True], [True, False, False]])
    if forbidden is None:
        expect_tensor(call(in_notebook(answer), logits, targets, mask, 0.1),
                      F.cross_entropy(logits[mask], targets[mask], label_smoothing=0.1), "f(x)", atol=1e-6)
    else:
        with pytest.raises(ExerciseFailure, match=f"label_smoothed_nll used {forbidden}"):
            call(in_notebook(answer), logits, targets, mask, 0.1)


def test_a_float_is_compared_within_its_tolerance_and_the_message_says_what_came_back():
    """Issue 37: warmup_rate's message read "... = 0.0124 is 0.0125 returned the wrong result. expected: True"."""
    expect_close(0.0125 + 1e-13, 0.0125, "warmup_rate(100, 64, 100)", atol=1e-12, rtol=1e-9)
    with pytest.raises(ExerciseFailure) as failure:
        expect_close(0.0124, 0.0125, "warmup_rate(100, 64, 100)", atol=1e-12, rtol=1e-9, hint="use step as given")
    assert str(failure.value) == ("warmup_rate(100, 64, 100) returned the wrong value (off by -0.0001).\n"
                                  "  expected: 0.0125\n  got:      0.0124\nHint: use step as given")
    with pytest.raises(ExerciseFailure, match=r"returned a Tensor; expected a float\.(.|\n)*Hint: a Python float$"):
        expect_close(torch.tensor(0.0125), 0.0125, "warmup_rate(100, 64, 100)", atol=1e-12, rtol=1e-9,
                     hint="no", type_hint="a Python float")
    with pytest.raises(ExerciseFailure, match="wrong value"):
        expect_close(float("nan"), 0.0125, "warmup_rate(100, 64, 100)", atol=1e-12, rtol=1e-9)
