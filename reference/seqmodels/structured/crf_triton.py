"""A Triton kernel of batched Viterbi decoding (Xiao Sec. 4.5.3), used by ``crf_viterbi_fused``.

One program per sentence keeps the K×K transition scores and the running best scores in registers and
loops over the positions inside the kernel, then follows the back pointers from the last position: one
launch for the whole decode, where ``crf_viterbi_batch`` pays ~5 launches per position forward and one
per position back. It does the same floating-point operations in the same order (an addition, a maximum,
an addition) and breaks ties towards the lowest tag as ``torch.max`` does, so its scores and paths are
``crf_viterbi_batch``'s exactly. Importing this module needs Triton.
"""
import torch
import triton
import triton.language as tl


@triton.jit(do_not_specialize=["length", "tags"])  # Triton's constant 1 (T = 1) broke its compiler
def _viterbi_kernel(emissions_ptr, mask_ptr, transitions_ptr, start_ptr, end_ptr, back_ptr, path_ptr, score_ptr,
                    length, tags, BLOCK: tl.constexpr):
    b = tl.program_id(0)
    previous = tl.arange(0, BLOCK)[:, None]
    current = tl.arange(0, BLOCK)
    transitions = tl.load(transitions_ptr + previous * tags + current, mask=(previous < tags) & (current < tags),
                          other=float("-inf"))
    row = emissions_ptr + b * length * tags
    best = tl.load(start_ptr + current, mask=current < tags, other=float("-inf")) + tl.load(
        row + current, mask=current < tags, other=float("-inf"))
    i = length * 0 + 1  # an int32 scalar: a while loop, since the interpreter's range() refuses a runtime bound
    while i < length:
        scores, pointers = tl.max(best[:, None] + transitions, axis=0, return_indices=True,
                                  return_indices_tie_break_left=True)  # over prev, as torch.max(dim=1)
        real = tl.load(mask_ptr + b * length + i) != 0
        best = tl.where(real, scores + tl.load(row + i * tags + current, mask=current < tags, other=float("-inf")),
                        best)
        tl.store(back_ptr + (b * length + i) * tags + current, tl.where(real, pointers, current), mask=current < tags)
        i += 1
    score, tag = tl.max(best + tl.load(end_ptr + current, mask=current < tags, other=float("-inf")), axis=0,
                        return_indices=True, return_indices_tie_break_left=True)
    tl.store(score_ptr + b, score)
    tl.store(path_ptr + b * length + length - 1, tag)
    tl.debug_barrier()  # every back pointer is written before one thread's pointer is read by all
    i = length - 1
    while i > 0:
        tag = tl.load(back_ptr + (b * length + i) * tags + tag)
        tl.store(path_ptr + b * length + i - 1, tag)
        i -= 1


def crf_viterbi_triton(emissions: torch.Tensor, mask: torch.Tensor, transitions: torch.Tensor, start: torch.Tensor,
                       end: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """The best tags of every position ``[B, T]`` (padded ones included) and the best scores ``[B]``."""
    B, T, K = emissions.shape
    path = torch.zeros(B, T, dtype=torch.int32, device=emissions.device)
    score = emissions.new_empty(B)
    if B == 0 or T == 0:
        return path, score
    back = torch.empty(B, T, K, dtype=torch.int32, device=emissions.device)
    block = max(triton.next_power_of_2(K), 16)
    _viterbi_kernel[(B,)](emissions.contiguous(), mask.to(torch.int8).contiguous(), transitions.contiguous(),
                          start.contiguous(), end.contiguous(), back, path, score, T, K, BLOCK=block,
                          num_warps=4 if block <= 64 else 8)
    return path, score
