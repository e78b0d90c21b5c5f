"""Connectionist temporal classification (Xiao Sec. 4.5.2; Graves et al., 2006).

A frame-level path over labels and the blank ε maps to an output by B: merge repeats, then
drop blanks. The probability of a target y sums over every path with B(path) = y; the
forward algorithm computes it on the extended target y' = ε y1 ε y2 ... ε (length 2S+1):

    α_t(s) = p_t(y'_s) · (α_{t-1}(s) + α_{t-1}(s-1) + [y'_s ≠ ε and y'_s ≠ y'_{s-2}] α_{t-1}(s-2))
    p(y | x) = α_T(2S+1) + α_T(2S)

all in log space here. The recursion runs over a whole padded batch at once. Decoding: the best path
(``ctc_greedy_decode``) or prefix beam search over labellings (``ctc_prefix_beam_search``).
"""
import math
from collections import defaultdict

import torch
from torch import nn

NEG_INF = float("-inf")


def ctc_collapse(labels: list[int], blank: int = 0) -> list[int]:
    """B(path): merge repeated labels, then drop blanks."""
    merged = [label for i, label in enumerate(labels) if i == 0 or label != labels[i - 1]]
    return [label for label in merged if label != blank]


def ctc_extend(target: list[int], blank: int = 0) -> list[int]:
    """y' = ε y1 ε y2 ... ε (length 2S+1)."""
    extended = [blank]
    for label in target:
        extended += [label, blank]
    return extended


def _log_sum_exp(x: torch.Tensor, dim: int = 0) -> torch.Tensor:
    """logsumexp whose gradient stays 0 (not NaN) where every term is -inf (an unreachable state)."""
    top = x.amax(dim=dim, keepdim=True)
    top = torch.where(torch.isinf(top), torch.zeros_like(top), top)
    total = (x - top).exp().sum(dim=dim)
    reachable = total > 0
    return torch.where(reachable, top.squeeze(dim) + torch.where(reachable, total, 1.0).log(), NEG_INF)


def _can_skip(extended: torch.Tensor, blank: int) -> torch.Tensor:
    """[y'_s ≠ ε and y'_s ≠ y'_{s-2}], the third term of the recursion, for extended [B, 2S+1]."""
    previous_two = torch.cat([extended.new_full((extended.shape[0], 2), -1), extended], dim=1)[:, :extended.shape[1]]
    return (extended != blank) & (extended != previous_two)


def _forward(log_probs: torch.Tensor, extended: torch.Tensor, input_lengths: torch.Tensor,
             extended_lengths: torch.Tensor, blank: int) -> list[torch.Tensor]:
    """α_t for t = 1..T_max over a batch: log_probs [T, B, C], extended [B, 2S+1] (padded); a list of [B, 2S+1]."""
    T, B, _ = log_probs.shape
    width = extended.shape[1]
    emit = log_probs.gather(2, extended.unsqueeze(0).expand(T, B, width))  # log p_t(y'_s), [T, B, 2S+1]
    can_skip = _can_skip(extended, blank)
    valid = torch.arange(width, device=extended.device) < extended_lengths.unsqueeze(1)
    alpha = torch.full((B, width), NEG_INF, dtype=log_probs.dtype, device=log_probs.device)
    alpha[:, 0] = emit[0, :, 0]
    if width > 1:
        alpha[:, 1] = torch.where(extended_lengths > 1, emit[0, :, 1], NEG_INF)
    alphas = [alpha]
    pad = alpha.new_full((B, 1), NEG_INF)
    for t in range(1, T):
        one_back = torch.cat([pad, alpha], dim=1)[:, :width]
        two_back = torch.where(can_skip, torch.cat([pad, pad, alpha], dim=1)[:, :width], NEG_INF)
        new = emit[t] + _log_sum_exp(torch.stack([alpha, one_back, two_back]))
        new = torch.where(valid, new, NEG_INF)
        alpha = torch.where((t < input_lengths).unsqueeze(1), new, alpha)  # finished rows keep their last α
        alphas.append(alpha)
    return alphas


def ctc_alpha(log_probs: torch.Tensor, target: list[int], blank: int = 0) -> torch.Tensor:
    """The log-space forward variables of one utterance: log_probs [T, C] -> [T, 2S+1]."""
    extended = torch.tensor([ctc_extend(target, blank)], device=log_probs.device)
    alphas = _forward(log_probs.unsqueeze(1), extended, torch.tensor([log_probs.shape[0]], device=log_probs.device),
                      torch.tensor([extended.shape[1]], device=log_probs.device), blank)
    return torch.stack([a[0] for a in alphas])


def ctc_loss(log_probs: torch.Tensor, targets: torch.Tensor, input_lengths, target_lengths, blank: int = 0,
             reduction: str = "mean") -> torch.Tensor:
    """-log p(y | x) per utterance, as ``F.ctc_loss``: targets padded [B, S_max] or concatenated [sum S];
    reduction "none" [B], "sum", or "mean" (each loss divided by its target length, then averaged)."""
    B = log_probs.shape[1]
    input_lengths = torch.as_tensor(input_lengths, device=log_probs.device)
    target_lengths = torch.as_tensor(target_lengths, device=log_probs.device)
    extended = _extended_targets(targets, target_lengths, B, blank, log_probs.device)
    alphas = torch.stack(_forward(log_probs, extended, input_lengths, 2 * target_lengths + 1, blank))  # [T, B, W]
    last = alphas[input_lengths - 1, torch.arange(B, device=log_probs.device)]  # α at each row's last frame, [B, W]
    return _reduce(_negative_log_likelihood(last, target_lengths), target_lengths, reduction)


def _extended_targets(targets: torch.Tensor, target_lengths: torch.Tensor, B: int, blank: int,
                      device: torch.device) -> torch.Tensor:
    """y' of every row, [B, 2S+1], from targets padded [B, S_max] or concatenated [sum S]."""
    if targets.dim() == 1:  # concatenated: split by the lengths (read on the host), then padded
        rows = targets.split(target_lengths.tolist())
        targets = nn.utils.rnn.pad_sequence(rows, batch_first=True) if rows else targets.view(0, 0)
    S = targets.shape[1]  # at least the longest target; columns past a row's length are ignored
    labels = torch.where(torch.arange(S, device=targets.device) < target_lengths.unsqueeze(1), targets, blank)
    extended = torch.full((B, 2 * S + 1), blank, dtype=torch.long, device=device)
    extended[:, 1::2] = labels  # y' = ε y1 ε y2 ... ε, for every row at once
    return extended


def _negative_log_likelihood(last: torch.Tensor, target_lengths: torch.Tensor) -> torch.Tensor:
    """-log p(y | x) = -log(α_T(2S+1) + α_T(2S)) from α at each row's last frame, [B, W] -> [B]."""
    end = 2 * target_lengths  # index of the final blank
    final = torch.stack([last.gather(1, end.unsqueeze(1)).squeeze(1),
                         torch.where(end > 0, last.gather(1, (end - 1).clamp(min=0).unsqueeze(1)).squeeze(1), NEG_INF)])
    return -_log_sum_exp(final)


def _reduce(losses: torch.Tensor, target_lengths: torch.Tensor, reduction: str) -> torch.Tensor:
    """``F.ctc_loss``'s reductions: "none", "sum", or "mean" (each loss divided by its target length, then averaged)."""
    if reduction == "none":
        return losses
    if reduction == "sum":
        return losses.sum()
    if reduction == "mean":
        return (losses / target_lengths.clamp(min=1).to(losses.dtype)).mean()
    raise ValueError(f"reduction must be 'none', 'sum' or 'mean', got {reduction!r}")


def ctc_greedy_decode(log_probs: torch.Tensor, blank: int = 0) -> list[int]:
    """Best path: the most likely label of every frame, collapsed by B."""
    return ctc_collapse(log_probs.argmax(dim=-1).tolist(), blank)


def _log_add(a: float, b: float) -> float:
    """log(e^a + e^b) of two Python floats, -inf allowed."""
    if a < b:
        a, b = b, a
    return a if b == NEG_INF else a + math.log1p(math.exp(b - a))


def ctc_prefix_beam_search(log_probs: torch.Tensor, beam_size: int, blank: int = 0) -> tuple[list[int], float]:
    """Prefix beam search (Graves et al., 2006; Hannun et al., 2014): an approximation of Xiao's Eq. (4.70)
    that ranks labellings by their CTC probability (Eq. 4.73, summed over alignments), not by one best path.

    ``log_probs`` [T, C] for one utterance; keeps the ``beam_size`` most probable prefixes after every frame,
    each with two log-probabilities: of its alignments that end in a blank and of those that end in its last
    label (needed because a repeated label only counts twice when a blank separates the two). Returns the best
    labelling and its log-probability log p(y | x), exact when the beam never drops a prefix.
    """
    frames = log_probs.detach().double().cpu().tolist()
    beams: dict[tuple[int, ...], tuple[float, float]] = {(): (0.0, NEG_INF)}  # prefix -> (log p_blank, log p_label)
    for row in frames:
        grown: dict[tuple[int, ...], list[float]] = defaultdict(lambda: [NEG_INF, NEG_INF])
        for prefix, (ends_blank, ends_label) in beams.items():
            total = _log_add(ends_blank, ends_label)
            grown[prefix][0] = _log_add(grown[prefix][0], total + row[blank])  # a blank keeps the prefix
            for label, log_p in enumerate(row):
                if label == blank:
                    continue
                longer = prefix + (label,)
                if prefix and prefix[-1] == label:
                    grown[prefix][1] = _log_add(grown[prefix][1], ends_label + log_p)  # a repeat merges ...
                    grown[longer][1] = _log_add(grown[longer][1], ends_blank + log_p)  # ... unless a blank separates
                else:
                    grown[longer][1] = _log_add(grown[longer][1], total + log_p)
        ranked = sorted(grown.items(), key=lambda item: -_log_add(*item[1]))
        beams = {prefix: (b, n) for prefix, (b, n) in ranked[:beam_size]}
    best, (ends_blank, ends_label) = max(beams.items(), key=lambda item: _log_add(*item[1]))
    return list(best), _log_add(ends_blank, ends_label)
