"""A fast CTC loss: ``ctc_loss``'s values, with the gradient from the backward variables instead of
autograd through a loop over frames (Graves et al., 2006, Sec. 4.1-4.2; Xiao Sec. 4.5.2).

With α_t(s) (the paths from the start to (t, s), its emission included) and β_t(s) (from (t, s) to the end,
excluded), the posterior occupancy of extended position s at frame t is

    γ_t(s) = exp(α_t(s) + β_t(s)) / p(y | x),   Σ_s γ_t(s) = 1 (every path is at one s per frame)

and the gradient of -log p(y | x) with respect to log p_t(c) is -Σ_{s: y'_s = c} γ_t(s) (Graves et al.'s
gradient, taken before the softmax, whose part comes from autograd through ``log_softmax``). The loss is an
``autograd.Function``: forward runs α, backward runs β and scatters γ onto the classes with a few batched
torch ops. Both recursions run in Triton kernels where Triton runs (``ctc_triton``: one launch for all
frames, instead of ~15 launches per frame); otherwise as torch ops over the batch (:func:`_alpha`,
:func:`_beta`, no graph), which is what a CPU runs and the CI tests.

Each frame's α and β are kept less their largest value (the rescaling of Graves et al., Sec. 4.1, in log
space): the offsets c_t of α add up to log p(y | x), and γ_t is normalised over s, so that no large
log-probabilities cancel (exp(α + β - log p) loses ~1e-4 of γ to float32 rounding at 200 frames, as
F.ctc_loss does; this keeps ~1e-5).
"""
import torch
from torch.autograd.function import once_differentiable

from seqmodels.structured.ctc import (NEG_INF, _can_skip, _extended_targets, _log_sum_exp, _negative_log_likelihood,
                                     _reduce)
from seqmodels.structured.triton_backend import triton_runs_on


def fused_ctc_loss(log_probs: torch.Tensor, targets: torch.Tensor, input_lengths, target_lengths, blank: int = 0,
                   reduction: str = "mean") -> torch.Tensor:
    """``ctc_loss``: same arguments and results (inf, with a zero gradient, where no alignment fits)."""
    B = log_probs.shape[1]
    input_lengths = torch.as_tensor(input_lengths, device=log_probs.device).clamp(min=1)  # 0 is 1, as in ctc_loss
    target_lengths = torch.as_tensor(target_lengths, device=log_probs.device)
    extended = _extended_targets(targets, target_lengths, B, blank, log_probs.device)
    losses = _FusedCTC.apply(log_probs, extended, input_lengths, 2 * target_lengths + 1, blank)
    return _reduce(losses, target_lengths, reduction)


class _FusedCTC(torch.autograd.Function):
    @staticmethod
    def forward(ctx, log_probs, extended, input_lengths, extended_lengths, blank):
        T, B, _ = log_probs.shape
        emit = log_probs.gather(2, extended.unsqueeze(0).expand(T, B, -1))  # log p_t(y'_s), [T, B, W]
        can_skip = _can_skip(extended, blank)
        if triton_runs_on(log_probs):
            from seqmodels.structured.ctc_triton import ctc_alpha_triton
            alpha, scale = ctc_alpha_triton(emit, can_skip, input_lengths, extended_lengths)
        else:
            alpha, scale = _alpha(emit, can_skip, input_lengths, extended_lengths)
        last = alpha[input_lengths - 1, torch.arange(B, device=alpha.device)]  # α̂ at each row's last frame
        losses = _negative_log_likelihood(last, extended_lengths // 2) - scale.sum(0)
        ctx.save_for_backward(emit, alpha, extended, can_skip, input_lengths, extended_lengths)
        ctx.classes = log_probs.shape[2]
        return losses

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_losses):
        emit, alpha, extended, can_skip, input_lengths, extended_lengths = ctx.saved_tensors
        if triton_runs_on(emit):
            from seqmodels.structured.ctc_triton import ctc_beta_triton
            beta = ctc_beta_triton(emit, can_skip, input_lengths, extended_lengths)
        else:
            beta = _beta(emit, can_skip, input_lengths, extended_lengths)
        paths = alpha + beta  # log of the paths through (t, s), less an offset per frame
        total = torch.logsumexp(paths, dim=2, keepdim=True)
        # -inf past a row's length, and everywhere in a row no alignment fits: γ = 0 there, as in ctc_loss
        gamma = torch.where(torch.isfinite(total), (paths - total).exp(), 0.0)  # γ_t(s), [T, B, W]
        T, B, W = gamma.shape
        grad = gamma.new_zeros(T, B, ctx.classes)
        grad.scatter_add_(2, extended.unsqueeze(0).expand(T, B, W), -gamma * grad_losses[:, None])  # Σ_{s: y'_s = c}
        return grad, None, None, None, None


def _normalised(values: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """values [B, W] less each row's largest (0 where all are -inf), and those largest values [B]."""
    top = values.amax(dim=1, keepdim=True)
    top = torch.where(top == NEG_INF, 0.0, top)
    return values - top, top.squeeze(1)


def _alpha(emit: torch.Tensor, can_skip: torch.Tensor, input_lengths: torch.Tensor,
           extended_lengths: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """The torch version of the α kernel: α̂ [T, B, W] (-inf past each row's length) and the scales [T, B]."""
    T, B, W = emit.shape
    valid = torch.arange(W, device=emit.device) < extended_lengths.unsqueeze(1)
    alpha, scale = torch.full_like(emit, NEG_INF), emit.new_zeros(T, B)
    alpha[0], scale[0] = _normalised(torch.where(valid & (torch.arange(W, device=emit.device) < 2), emit[0], NEG_INF))
    pad = emit.new_full((B, 2), NEG_INF)
    for t in range(1, T):
        previous = torch.cat([pad, alpha[t - 1]], dim=1)  # column s + 2 holds α̂_{t-1}(s)
        step, jump = previous[:, 1:W + 1], torch.where(can_skip, previous[:, :W], NEG_INF)
        new, top = _normalised(torch.where(valid, emit[t] + _log_sum_exp(torch.stack([alpha[t - 1], step, jump])),
                                           NEG_INF))
        reached = t < input_lengths
        alpha[t], scale[t] = torch.where(reached.unsqueeze(1), new, NEG_INF), torch.where(reached, top, 0.0)
    return alpha, scale


def _beta(emit: torch.Tensor, can_skip: torch.Tensor, input_lengths: torch.Tensor,
          extended_lengths: torch.Tensor) -> torch.Tensor:
    """The torch version of the β kernel: β̂ [T, B, W], -inf past each row's length."""
    T, B, W = emit.shape
    n = extended_lengths.unsqueeze(1)
    s = torch.arange(W, device=emit.device)
    final = torch.where((s == n - 1) | ((s == n - 2) & (n > 1)), 0.0, NEG_INF).to(emit.dtype)
    skip_ahead = torch.cat([can_skip, can_skip.new_zeros(B, 2)], dim=1)[:, 2:]
    last = (input_lengths - 1).unsqueeze(1)
    pad = emit.new_full((B, 2), NEG_INF)
    beta = torch.full_like(emit, NEG_INF)
    beta[T - 1] = torch.where(last == T - 1, final, NEG_INF)
    for t in range(T - 2, -1, -1):
        ahead = torch.cat([beta[t + 1] + emit[t + 1], pad], dim=1)  # column s holds e_{t+1}(s) + β̂_{t+1}(s)
        step, jump = ahead[:, 1:W + 1], torch.where(skip_ahead, ahead[:, 2:W + 2], NEG_INF)
        new, _ = _normalised(_log_sum_exp(torch.stack([ahead[:, :W], step, jump])))
        beta[t] = torch.where(t == last, final, torch.where(t < last, new, NEG_INF))
    return beta
