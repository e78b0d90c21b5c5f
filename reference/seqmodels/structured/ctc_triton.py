"""Triton kernels of the CTC recursions (Graves et al., 2006; Xiao Sec. 4.5.2), used by ``fused_ctc_loss``.

One program per batch row holds every extended-target position s (2S+1 of them, padded to a power of two)
and loops over the frames inside the kernel: a single launch for all frames, where a loop of torch ops
pays ~15 launches per frame. Each frame's values go to the output buffer, and the next frame reads them
back at offsets s-1, s-2 (α) or s+1, s+2 (β): that shifts values across the block's threads, so a barrier
separates the store from the next frame's loads. The values are stored less their frame's maximum (see
``ctc_fused``). float32 and float64 alike (tl.exp and tl.log take both). Importing this module needs Triton.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def _log_add3(a, b, c):
    """log(e^a + e^b + e^c), -inf where all three are (no NaN from -inf - -inf)."""
    top = tl.maximum(tl.maximum(a, b), c)
    top = tl.where(top == float("-inf"), 0.0, top)
    return top + tl.log(tl.exp(a - top) + tl.exp(b - top) + tl.exp(c - top))


@triton.jit
def _finite_max(x):
    top = tl.max(x, axis=0)
    return tl.where(top == float("-inf"), 0.0, top)


@triton.jit(do_not_specialize=["frames", "width"])  # Triton's constant 1 (T = 1, S = 0) broke its compiler
def _alpha_kernel(emit_ptr, skip_ptr, alpha_ptr, scale_ptr, input_lengths_ptr, extended_lengths_ptr, frames,
                  width, BLOCK: tl.constexpr):
    """α̂_t(s) = e_t(s) + log(α̂_{t-1}(s) + α̂_{t-1}(s-1) + [skip_s] α̂_{t-1}(s-2)) - c_t for t < the row's
    length, c_t its largest value (stored too)."""
    b = tl.program_id(0)
    batch = tl.num_programs(0)
    s = tl.arange(0, BLOCK)
    valid = s < tl.load(extended_lengths_ptr + b)
    length = tl.load(input_lengths_ptr + b)
    skip = tl.load(skip_ptr + b * width + s, mask=valid, other=0) != 0
    row = b * width + s
    first = tl.load(emit_ptr + row, mask=valid & (s < 2), other=float("-inf"))  # α_1: start in ε or y_1
    top = _finite_max(first)
    tl.store(alpha_ptr + row, first - top, mask=valid)
    tl.store(scale_ptr + b, top)
    tl.debug_barrier()
    t = length * 0 + 1  # an int32 scalar: a while loop, since the interpreter's range() refuses a runtime bound
    while t < frames:  # every row to T, masked past its length
        previous = alpha_ptr + (t - 1) * batch * width + row
        stay = tl.load(previous, mask=valid, other=float("-inf"))
        step = tl.load(previous - 1, mask=valid & (s >= 1), other=float("-inf"))
        jump = tl.load(previous - 2, mask=valid & skip & (s >= 2), other=float("-inf"))
        emit = tl.load(emit_ptr + t * batch * width + row, mask=valid, other=float("-inf"))
        alpha = emit + _log_add3(stay, step, jump)
        top = _finite_max(alpha)
        tl.store(alpha_ptr + t * batch * width + row, alpha - top, mask=valid & (t < length))
        tl.store(scale_ptr + t * batch + b, top, mask=t < length)
        tl.debug_barrier()  # frame t is written before frame t+1 reads its neighbours
        t += 1


@triton.jit(do_not_specialize=["frames", "width"])
def _beta_kernel(emit_ptr, skip_ptr, beta_ptr, input_lengths_ptr, extended_lengths_ptr, frames, width,
                 BLOCK: tl.constexpr):
    """β̂_t(s) = log(Σ_{s' ∈ {s, s+1, s+2 if skip_{s+2}}} e_{t+1}(s') β̂_{t+1}(s')) less its largest value,
    from 0 at the two final positions of the row's last frame; excludes e_t(s), so that α_t(s) + β_t(s) is
    the log of the paths through (t, s)."""
    b = tl.program_id(0)
    batch = tl.num_programs(0)
    s = tl.arange(0, BLOCK)
    extended_length = tl.load(extended_lengths_ptr + b)
    valid = s < extended_length
    skip_ahead = tl.load(skip_ptr + b * width + s + 2, mask=s + 2 < extended_length, other=0) != 0
    row = b * width + s
    last = tl.load(input_lengths_ptr + b) - 1
    final = (s == extended_length - 1) | ((s == extended_length - 2) & (extended_length > 1))
    tl.store(beta_ptr + last * batch * width + row, tl.where(final, 0.0, float("-inf")), mask=valid)
    tl.debug_barrier()
    t = frames - 2
    while t >= 0:
        ahead = beta_ptr + (t + 1) * batch * width + row
        emit_ahead = emit_ptr + (t + 1) * batch * width + row
        stay = tl.load(ahead, mask=valid, other=float("-inf")) + tl.load(emit_ahead, mask=valid, other=0.0)
        step_mask = s + 1 < extended_length
        step = tl.load(ahead + 1, mask=step_mask, other=float("-inf")) + tl.load(emit_ahead + 1, mask=step_mask,
                                                                                   other=0.0)
        jump = tl.load(ahead + 2, mask=skip_ahead, other=float("-inf")) + tl.load(emit_ahead + 2, mask=skip_ahead,
                                                                                  other=0.0)
        beta = _log_add3(stay, step, jump)
        tl.store(beta_ptr + t * batch * width + row, beta - _finite_max(beta), mask=valid & (t < last))
        tl.debug_barrier()
        t -= 1


def _launch_arguments(emit, can_skip, input_lengths, extended_lengths):
    T, B, W = emit.shape
    block = max(triton.next_power_of_2(W), 16)
    return ((emit.contiguous(), can_skip.to(torch.int8).contiguous()),
            (input_lengths.to(torch.int32), extended_lengths.to(torch.int32), T, W),
            {"BLOCK": block, "num_warps": min(max(block // 32, 1), 8)})


def ctc_alpha_triton(emit: torch.Tensor, can_skip: torch.Tensor, input_lengths: torch.Tensor,
                     extended_lengths: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """α̂ [T, B, W] (-inf past each row's length) and the scales c [T, B] (0 there), from emit = log p_t(y'_s)
    [T, B, W], can_skip [B, W] and the lengths [B] (input lengths at least 1)."""
    T, B, W = emit.shape
    alpha, scale = torch.full_like(emit, float("-inf")), emit.new_zeros(T, B)
    if B:
        inputs, lengths, options = _launch_arguments(emit, can_skip, input_lengths, extended_lengths)
        _alpha_kernel[(B,)](*inputs, alpha, scale, *lengths, **options)
    return alpha, scale


def ctc_beta_triton(emit: torch.Tensor, can_skip: torch.Tensor, input_lengths: torch.Tensor,
                    extended_lengths: torch.Tensor) -> torch.Tensor:
    """β̂ [T, B, W] (-inf past each row's length), as :func:`ctc_alpha_triton` takes its inputs."""
    beta = torch.full_like(emit, float("-inf"))
    if emit.shape[1]:
        inputs, lengths, options = _launch_arguments(emit, can_skip, input_lengths, extended_lengths)
        _beta_kernel[(emit.shape[1],)](*inputs, beta, *lengths, **options)
    return beta
