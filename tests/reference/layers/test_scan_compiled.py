"""The scan's compiled fast path against the float64 loop over t (per dtype: float32 within atol = rtol = 1e-5,
float64 within atol = rtol = 1e-12) and bitwise against the float32 loop, whose roundings it repeats: lengths of
one step and more, batches, widths that the threads' blocks do not divide, one and two threads, inputs that are
not contiguous; its gradients against autograd through the loop; the clear errors; the fallback without a
compiler; and the Mamba block's selective scan through it."""
import re
import warnings

import pytest
import torch
from seqmodels.layers import scan_compiled
from seqmodels.layers.scan import linear_scan
from seqmodels.layers.scan_compiled import compiled_linear_scan, fast_linear_scan
from seqmodels.layers.selective import selective_scan, selective_scan_fast

from tests.reference.layers.test_scan import loop

TOLERANCE = {torch.float32: 1e-5, torch.float64: 1e-12}  # atol and rtol alike
SHAPES = [(1, 1, 3), (2, 1, 5), (1, 7, 1), (3, 65, 17), (2, 130, 600), (1, 300, 4096)]


@pytest.fixture(params=[1, 2], ids=["1 thread", "2 threads"])
def threads(request):
    before = torch.get_num_threads()
    torch.set_num_threads(request.param)
    yield request.param
    torch.set_num_threads(before)


def inputs(shape, dtype=torch.float64, seed=0):
    g = torch.Generator().manual_seed(seed)
    a = torch.rand(*shape, generator=g, dtype=torch.float64) * 0.9 + 0.1
    return a.to(dtype), torch.randn(*shape, generator=g, dtype=torch.float64).to(dtype)


def test_the_kernel_builds_here():
    assert scan_compiled.compiled_scan_available(), "g++ is on this machine: the compiled scan must build"


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_matches_the_float64_loop(shape, dtype, threads):
    a, b = inputs(shape, dtype, seed=shape[1])
    got = compiled_linear_scan(a, b)
    assert got.dtype == dtype and got.shape == shape
    tol = TOLERANCE[dtype]
    torch.testing.assert_close(got.double(), loop(a.double(), b.double()), atol=tol, rtol=tol)
    assert torch.equal(got, loop(a, b)), "the same multiply and add in the same order as the loop: no other rounding"


def test_small_decays_over_a_long_sequence_in_float32():
    g = torch.Generator().manual_seed(0)
    a, b = torch.full((1, 4096, 2), 0.5), torch.randn(1, 4096, 2, generator=g)
    torch.testing.assert_close(compiled_linear_scan(a, b).double(), loop(a.double(), b.double()), atol=1e-5,
                               rtol=1e-5)


def test_inputs_that_are_not_contiguous():
    a, b = inputs((2, 9, 6))
    a_t, b_t = a.transpose(0, 2).contiguous().transpose(0, 2), b[:, :, ::2].repeat_interleave(2, dim=2)
    assert not a_t.is_contiguous()
    torch.testing.assert_close(compiled_linear_scan(a_t, b_t), loop(a, b_t), atol=1e-12, rtol=1e-12)


@pytest.mark.parametrize("shape", [(1, 1, 2), (2, 9, 3), (3, 40, 33)], ids=str)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_gradients_match_autograd_through_the_loop(shape, dtype, threads):
    a, b = inputs(shape, dtype, seed=7)
    weight = torch.randn(shape, generator=torch.Generator().manual_seed(8), dtype=dtype)
    grads = []
    for scan in (compiled_linear_scan, loop):
        x, y = a.clone().requires_grad_(), b.clone().requires_grad_()
        (scan(x, y) * weight).sum().backward()
        grads.append((x.grad, y.grad))
    tol = TOLERANCE[dtype]
    for got, expected, name in zip(grads[0], grads[1], ("a", "b")):
        torch.testing.assert_close(got, expected, atol=tol, rtol=tol, msg=lambda m, name=name: f"d loss / d {name}: {m}")


def test_gradcheck():
    a, b = inputs((2, 6, 3))
    assert torch.autograd.gradcheck(compiled_linear_scan, (a.requires_grad_(), b.requires_grad_()))


@pytest.mark.parametrize(("a", "b", "says"), [
    (torch.ones(1, 4, 3), torch.ones(1, 4, 2), "one shape [B, L, D]; got (1, 4, 3) and (1, 4, 2)"),
    (torch.ones(4, 3), torch.ones(4, 3), "one shape [B, L, D]; got (4, 3) and (4, 3)"),
    (torch.ones(1, 4, 3), torch.ones(1, 4, 3, dtype=torch.float64), "got torch.float32 on cpu and torch.float64"),
    (torch.ones(1, 4, 3, dtype=torch.float16), torch.ones(1, 4, 3, dtype=torch.float16), "float32 or float64"),
])
def test_bad_input_is_named(a, b, says):
    with pytest.raises(ValueError, match=says.replace("[", r"\[").replace("]", r"\]").replace("(", r"\(")
                       .replace(")", r"\)")):
        compiled_linear_scan(a, b)


def test_fast_path_equals_the_loop_on_every_device(device):
    a, b = inputs((2, 33, 5))
    torch.testing.assert_close(fast_linear_scan(a.to(device), b.to(device)).cpu(), loop(a, b), atol=1e-12,
                               rtol=1e-12)


@pytest.mark.parametrize(("cxx", "cache", "says"), [
    ("no-such-compiler", "cache", "no C++ compiler (no-such-compiler) found"),
    ("false", "cache", "false failed (exit 1)"),
    ("g++", "a-file", "cannot be written"),
], ids=["no compiler", "a compiler that fails", "a cache folder that cannot be written"])
def test_without_a_compiler_it_falls_back_to_linear_scan_with_one_warning(cxx, cache, says, monkeypatch, tmp_path):
    (tmp_path / "a-file").write_text("a file where the cache folder should be")
    monkeypatch.setenv("CXX", cxx)
    monkeypatch.setenv("SEQMODELS_CACHE", str(tmp_path / cache / "seqmodels"))
    scan_compiled._library.cache_clear()
    try:
        a, b = inputs((1, 5, 2))
        with pytest.warns(RuntimeWarning, match=re.escape("fast_linear_scan runs linear_scan: ") + ".*" + re.escape(says)):
            assert not scan_compiled.compiled_scan_available()
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # one warning, not one per call
            assert torch.equal(fast_linear_scan(a, b), linear_scan(a, b))
    finally:
        scan_compiled._library.cache_clear()


def test_the_selective_scan_through_the_fast_path_and_its_gradients():
    g = torch.Generator().manual_seed(3)
    batch, L, D, N = 2, 19, 4, 3
    args = [torch.randn(batch, L, D, generator=g, dtype=torch.float64),
            torch.rand(batch, L, D, generator=g, dtype=torch.float64) * 0.5,
            -torch.rand(D, N, generator=g, dtype=torch.float64) - 0.1,
            torch.randn(batch, L, N, generator=g, dtype=torch.float64),
            torch.randn(batch, L, N, generator=g, dtype=torch.float64),
            torch.randn(D, generator=g, dtype=torch.float64)]
    grads = []
    for selective in (selective_scan_fast, selective_scan):
        leaves = [x.clone().requires_grad_() for x in args]
        out = selective(*leaves)
        out.pow(2).sum().backward()
        grads.append((out.detach(), [x.grad for x in leaves]))
    torch.testing.assert_close(grads[0][0], grads[1][0], atol=1e-12, rtol=1e-12)
    for got, expected in zip(grads[0][1], grads[1][1]):
        torch.testing.assert_close(got, expected, atol=1e-12, rtol=1e-12)
