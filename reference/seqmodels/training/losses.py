"""The language-model loss: mean negative log-likelihood per real token, and perplexity (Xiao Eq. 4.11).

    NLL = -(1 / N) sum_{b, i: mask[b, i]} log softmax(logits[b, i])[targets[b, i]],   N = number of real tokens
    perplexity = exp(NLL)

Padding contributes nothing, whatever its target id; the log-softmax is computed stably.
``sequence_nll`` is the course's formula; the models train with ``masked_cross_entropy``, the same
quantity by PyTorch's fused kernel.

Chapter 12's **label smoothing** (Szegedy et al., 2016; Vaswani et al., 2017, §5.4, ε = 0.1) trains towards
the target with probability 1 − ε plus ε spread evenly over the V words::

    loss = (1 / N) sum_{real b, i} (1 − ε)(−log p_{b,i}[t_{b,i}]) + ε · (1/V) sum_v (−log p_{b,i}[v])
"""
import torch
from torch.nn import functional as F

from seqmodels.training.trainer import at_least_float32

IGNORED = -100  # a target id no vocabulary has: F.cross_entropy skips it


def sequence_nll(logits: torch.Tensor, targets: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Mean negative log-likelihood of ``targets`` ``[B, L]`` under ``logits`` ``[B, L, V]`` over the real
    (``mask`` True) positions: a scalar in the logits' dtype."""
    mask = mask.to(torch.bool)
    safe_targets = torch.where(mask, targets, torch.zeros_like(targets))  # any id under padding, even an invalid one
    log_z = torch.logsumexp(logits, dim=-1)  # [B, L], stable
    target_logit = logits.gather(-1, safe_targets.unsqueeze(-1)).squeeze(-1)
    nll = torch.where(mask, log_z - target_logit, torch.zeros_like(log_z))
    return _mean_over(nll, mask)


def label_smoothed_nll(logits: torch.Tensor, targets: torch.Tensor, mask: torch.Tensor,
                       epsilon: float) -> torch.Tensor:
    """The label-smoothed loss above over the real positions of ``logits [B, L, V]``: a scalar, equal to
    ``F.cross_entropy(..., label_smoothing=epsilon)`` on those positions."""
    mask = mask.to(torch.bool)
    log_p = torch.log_softmax(logits, dim=-1)
    safe_targets = torch.where(mask, targets, torch.zeros_like(targets))
    nll = -log_p.gather(-1, safe_targets.unsqueeze(-1)).squeeze(-1)
    smoothed = (1.0 - epsilon) * nll - epsilon * log_p.mean(dim=-1)
    return _mean_over(torch.where(mask, smoothed, torch.zeros_like(smoothed)), mask)


def _mean_over(losses: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """The mean of the per-token ``losses`` (0 under padding) over the real tokens, in the losses' dtype but summed
    in at least float32: a float16 sum passes 65,504 (inf) at a few thousand tokens while the mean is small."""
    return (at_least_float32(losses).sum() / mask.sum()).to(losses.dtype)


def perplexity(logits: torch.Tensor, targets: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """``exp(sequence_nll(logits, targets, mask))``: the geometric-mean inverse probability per real token."""
    return torch.exp(sequence_nll(logits, targets, mask))


def masked_cross_entropy(logits: torch.Tensor, targets: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """``sequence_nll`` by ``F.cross_entropy`` in float32 (also under bf16 autocast): padding is skipped
    through ``ignore_index`` instead of selecting the real rows, which would wait for the GPU to count
    them and copy their logits. Same value; bitwise the same gradient."""
    skipped = targets.masked_fill(~mask.to(torch.bool), IGNORED)
    return F.cross_entropy(at_least_float32(logits).flatten(0, -2), skipped.flatten(), ignore_index=IGNORED)
