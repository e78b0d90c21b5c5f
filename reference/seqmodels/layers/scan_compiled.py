"""The linear recurrence h_t = a_t ⊙ h_{t−1} + b_t as a compiled CPU loop: chapter 14's fast path on the CPU.

On a CPU the recurrence is bound by memory, not arithmetic: each step reads a_t and b_t and writes h_t, one
multiply-add per element. The loop over t in Python pays PyTorch's dispatch (some 7 µs an operation) three
times per step, and the parallel scans (``linear_scan``, ``chunked_linear_scan``) read and write the whole
[B, L, D] sequence many times. A loop in C over t, whose inner loop runs over the contiguous channels, reads a
and b once and writes h once (the least memory traffic any method can have) and keeps the state in the cache;
OpenMP splits the channels between the threads, each a contiguous block of every row.

The kernel is plain C (no PyTorch headers, so it compiles in under a second, where ``cpp_extension`` takes a
minute on two cores), built once with the system's compiler (``$CXX``, else ``g++``) into a cache folder
(``$SEQMODELS_CACHE``, else ``~/.cache/seqmodels``) under a name that hashes its source and flags, and called
through ``ctypes``, which releases the GIL. Without a compiler ``compiled_scan_available()`` is False, with one
warning that says why, and ``fast_linear_scan`` runs ``linear_scan`` instead.

Gradients: with g_t = ∂loss/∂h_t + a_{t+1} g_{t+1} (the same recurrence run backwards, from g_L = 0),
∂loss/∂b_t = g_t and ∂loss/∂a_t = g_t h_{t−1}, so the backward pass is the same kernel run in reverse.
"""
import ctypes
import hashlib
import os
import shutil
import subprocess
import tempfile
import warnings
from functools import cache
from pathlib import Path

import torch
from torch.autograd.function import once_differentiable

from seqmodels.layers.scan import linear_scan

SOURCE = r"""
#include <stdint.h>
#include <sys/mman.h>
/* A fresh output costs a page fault per 4 KB page, which took longer than the scan itself (45 ms for the 64 MB
   of L = 4,096, D·N = 4,096 on a 2-core VM): ask for 2 MB pages where the system gives them on request. */
static void huge_pages(void *start, int64_t bytes) {
    const int64_t page = 1 << 21;
    int64_t first = ((int64_t)start + page - 1) / page * page, last = ((int64_t)start + bytes) / page * page;
    if (last > first) madvise((void *)first, last - first, MADV_HUGEPAGE);
}
/* Each task runs the whole recurrence over one contiguous block of channels of one sequence; each row of h is
   computed from the row written just before (still in the cache), so no separate state is kept. */
#define SCAN(NAME, T)                                                                                    \
void NAME(const T *a, const T *b, T *h, int64_t batch, int64_t length, int64_t width, int reverse,     \
          int threads) {                                                                               \
    huge_pages(h, batch * length * width * (int64_t)sizeof(T));                                        \
    int64_t split = threads > batch ? (threads + batch - 1) / batch : 1;  /* tasks per sequence */      \
    int64_t block = ((width + split - 1) / split + 15) / 16 * 16;                                     \
    int64_t blocks = (width + block - 1) / block;                                                      \
    _Pragma("omp parallel for num_threads(threads) schedule(static)")                                  \
    for (int64_t task = 0; task < batch * blocks; task++) {                                            \
        int64_t first = (task % blocks) * block, count = width - first < block ? width - first : block;\
        int64_t base = (task / blocks) * length * width + first;                                       \
        for (int64_t i = 0; i < length; i++) {                                                         \
            int64_t t = reverse ? length - 1 - i : i, before = reverse ? t + 1 : t - 1;                \
            /* forwards h_t = a_t h_{t-1} + b_t; backwards g_t = a_{t+1} g_{t+1} + b_t (b: the gradient) */\
            const T *decay = a + base + (reverse ? t + 1 : t) * width, *input = b + base + t * width;  \
            const T *state = h + base + before * width;                                                \
            T *out = h + base + t * width;                                                             \
            if (i == 0)                                                                                \
                for (int64_t d = 0; d < count; d++) out[d] = input[d];                                 \
            else                                                                                       \
                for (int64_t d = 0; d < count; d++) out[d] = decay[d] * state[d] + input[d];           \
        }                                                                                              \
    }                                                                                                  \
}
extern "C" {
SCAN(scan_float, float)
SCAN(scan_double, double)
}
"""
FLAGS = ["-O3", "-fopenmp", "-fPIC", "-shared", "-ffp-contract=off"]  # no fused multiply-add: the loop's rounding


def _cache_dir() -> Path:
    return Path(os.environ.get("SEQMODELS_CACHE") or Path.home() / ".cache" / "seqmodels")


def _build(compiler: str, target: Path) -> str | None:
    """Compile the kernel into ``target``; why that failed, or None."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=target.parent) as work:  # built aside, then renamed: atomic
            source, built = Path(work) / "scan.cpp", Path(work) / "scan.so"
            source.write_text(SOURCE)
            result = subprocess.run([compiler, *FLAGS, str(source), "-o", str(built)], capture_output=True,
                                    text=True, check=False)
            if result.returncode != 0:
                return f"{compiler} failed (exit {result.returncode}): {result.stderr.strip()[:500]}"
            os.replace(built, target)
    except OSError as error:
        return f"the cache folder {target.parent} cannot be written ({error}; set SEQMODELS_CACHE)"
    return None


@cache
def _library() -> ctypes.CDLL | None:
    """The compiled kernel, built on first use; None (and one warning) where it cannot be built."""
    compiler = shutil.which(os.environ.get("CXX", "g++"))
    key = hashlib.sha256("\0".join([SOURCE, str(compiler), *FLAGS]).encode()).hexdigest()[:16]
    target = _cache_dir() / f"scan-{key}.so"
    reason = (f"no C++ compiler ({os.environ.get('CXX', 'g++')}) found" if compiler is None
              else None if target.exists() else _build(compiler, target))
    if reason is not None:
        warnings.warn(f"seqmodels: the scan's compiled fast path is off, so fast_linear_scan runs linear_scan: "
                      f"{reason}", RuntimeWarning, stacklevel=3)
        return None
    library = ctypes.CDLL(str(target))
    for function in (library.scan_float, library.scan_double):
        function.restype = None
        function.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_int64] * 3 + [ctypes.c_int] * 2
    return library


def compiled_scan_available() -> bool:
    return _library() is not None


def _run(a: torch.Tensor, b: torch.Tensor, reverse: bool) -> torch.Tensor:
    """The kernel over contiguous ``a, b [B, L, D]`` of one floating dtype: h, or backwards g (see above)."""
    a, b = a.contiguous(), b.contiguous()
    h = torch.empty_like(b)
    kernel = _library().scan_float if b.dtype == torch.float32 else _library().scan_double
    kernel(a.data_ptr(), b.data_ptr(), h.data_ptr(), *b.shape, int(reverse), torch.get_num_threads())
    return h


class _CompiledScan(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        h = _run(a, b, reverse=False)
        ctx.save_for_backward(a, h)
        return h

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_h: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        a, h = ctx.saved_tensors
        g = _run(a, grad_h, reverse=True)  # g_t = ∂loss/∂h_t + a_{t+1} g_{t+1}
        h_before = torch.cat([torch.zeros_like(h[:, :1]), h[:, :-1]], dim=1)  # h_{t−1}, from h_{−1} = 0
        return g * h_before, g


def compiled_linear_scan(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """``linear_scan(a, b)`` for CPU tensors ``a, b [B, L, D]`` of float32 or float64, by the compiled kernel
    (``compiled_scan_available()`` must be True), differentiable."""
    if a.shape != b.shape or a.dim() != 3:
        raise ValueError(f"compiled_linear_scan needs a and b of one shape [B, L, D]; got {tuple(a.shape)} and "
                         f"{tuple(b.shape)}")
    if a.device.type != "cpu" or a.dtype != b.dtype or a.dtype not in (torch.float32, torch.float64):
        raise ValueError(f"compiled_linear_scan runs on CPU tensors of float32 or float64, both alike; got "
                         f"{a.dtype} on {a.device} and {b.dtype} on {b.device}")
    return _CompiledScan.apply(a, b)


def fast_linear_scan(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """``linear_scan(a, b)`` by the fastest route at hand: the compiled kernel for float32 and float64 CPU
    tensors where a compiler built it, ``linear_scan`` otherwise (on a GPU its O(log L) rounds are few launches)."""
    if (a.device.type == "cpu" and a.dtype == b.dtype and a.dtype in (torch.float32, torch.float64)
            and a.shape == b.shape and a.dim() == 3 and compiled_scan_available()):
        return compiled_linear_scan(a, b)
    return linear_scan(a, b)
