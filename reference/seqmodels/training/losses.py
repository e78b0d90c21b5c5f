"""The language-model loss: mean negative log-likelihood per real token, and perplexity (Xiao Eq. 4.11).

    NLL = -(1 / N) sum_{b, i: mask[b, i]} log softmax(logits[b, i])[targets[b, i]],   N = number of real tokens
    perplexity = exp(NLL)

Padding contributes nothing, whatever its target id; the log-softmax is computed stably.
"""
import torch


def sequence_nll(logits: torch.Tensor, targets: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Mean negative log-likelihood of ``targets`` ``[B, L]`` under ``logits`` ``[B, L, V]`` over the real
    (``mask`` True) positions: a scalar in the logits' dtype."""
    mask = mask.to(torch.bool)
    safe_targets = torch.where(mask, targets, torch.zeros_like(targets))  # any id under padding, even an invalid one
    log_z = torch.logsumexp(logits, dim=-1)  # [B, L], stable
    target_logit = logits.gather(-1, safe_targets.unsqueeze(-1)).squeeze(-1)
    nll = torch.where(mask, log_z - target_logit, torch.zeros_like(log_z))
    return nll.sum() / mask.sum()


def perplexity(logits: torch.Tensor, targets: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """``exp(sequence_nll(logits, targets, mask))``: the geometric-mean inverse probability per real token."""
    return torch.exp(sequence_nll(logits, targets, mask))
