"""Linear-chain CRFs and HMM decoding (Xiao Sec. 4.5.3).

Conventions (the syllabus's): ``transitions[prev, cur]`` scores the move prev -> cur (Xiao's
u(y_{i-1}, y_i), Eq. 4.82); ``start[k]`` / ``end[k]`` score a first / last tag k; masks are
contiguous prefixes whose first position is real. The score of a tag sequence (Eq. 4.85):

    s(y) = start[y_1] + Σ_i emissions[i, y_i] + Σ_{i>1} transitions[y_{i-1}, y_i] + end[y_T]

and ``log Z = log Σ_y exp s(y)`` (Eq. 4.80) by the forward algorithm in O(T K^2); Xiao only names the
algorithm, the recursion is in the docstring of :func:`crf_log_partition`. ``start`` plays Xiao's
u(y_0, y_1), which Eq. 4.85 leaves undefined.
"""
import torch

from seqmodels.structured.crf_scan import crf_log_partition_scan, scan_fits
from seqmodels.structured.triton_backend import triton_runs_on


def crf_score(emissions: torch.Tensor, tags, transitions: torch.Tensor, start: torch.Tensor,
              end: torch.Tensor) -> torch.Tensor:
    """s(y) (Eq. 4.85 plus start and end scores) for one sequence: emissions [T, K], tags [T] (list or tensor)."""
    tags = torch.as_tensor(tags, device=emissions.device)
    positions = torch.arange(len(tags), device=emissions.device)
    return (start[tags[0]] + emissions[positions, tags].sum() + transitions[tags[:-1], tags[1:]].sum()
            + end[tags[-1]])


def crf_log_partition(emissions: torch.Tensor, mask: torch.Tensor, transitions: torch.Tensor, start: torch.Tensor,
                      end: torch.Tensor) -> torch.Tensor:
    """log Z (Eq. 4.80) for every sequence of the batch, ``[B]``: emissions [B, T, K], mask [B, T].

    Forward algorithm: alpha_1 = start + e_1, alpha_i[k] = e_i[k] + logsumexp_j(alpha_{i-1}[j] + u[j, k]),
    log Z = logsumexp_k(alpha_T[k] + end[k]); padded steps leave alpha unchanged."""
    alpha = start + emissions[:, 0]  # [B, K]: log-sum of the scores of prefixes ending in each tag
    for i in range(1, emissions.shape[1]):
        step = torch.logsumexp(alpha.unsqueeze(2) + transitions, dim=1) + emissions[:, i]  # over prev
        alpha = torch.where(mask[:, i].unsqueeze(1), step, alpha)
    return torch.logsumexp(alpha + end, dim=1)


def _gold_scores(emissions, tags, mask, transitions, start, end) -> torch.Tensor:
    """s(y) for every sequence of a padded batch, ``[B]``."""
    B, T, _ = emissions.shape
    mask = mask.to(torch.bool)
    emitted = (emissions.gather(2, tags.unsqueeze(2)).squeeze(2) * mask).sum(1)
    moved = (transitions[tags[:, :-1], tags[:, 1:]] * mask[:, 1:]).sum(1)
    last = tags.gather(1, (mask.sum(1) - 1).unsqueeze(1)).squeeze(1)
    return start[tags[:, 0]] + emitted + moved + end[last]


def log_partition_for(emissions: torch.Tensor):
    """The log Z algorithm ``crf_nll`` uses for these emissions: the scan on a GPU while it fits, else the loop."""
    return crf_log_partition_scan if emissions.is_cuda and scan_fits(emissions) else crf_log_partition


def crf_nll(emissions: torch.Tensor, tags: torch.Tensor, mask: torch.Tensor, transitions: torch.Tensor,
            start: torch.Tensor, end: torch.Tensor) -> torch.Tensor:
    """Mean over the batch of ``log Z - s(y)``. On a GPU, log Z comes from the parallel scan
    (``crf_log_partition_scan``: a few launches per level of log2 T, not per position) unless its K^3
    intermediates would be large; on a CPU from the forward algorithm, faster there (the scan does K times
    more arithmetic). Same values either way."""
    return (log_partition_for(emissions)(emissions, mask, transitions, start, end)
            - _gold_scores(emissions, tags, mask, transitions, start, end)).mean()


@torch.no_grad()  # decoding: paths and numbers, nothing to differentiate
def crf_viterbi_batch(emissions: torch.Tensor, mask: torch.Tensor, transitions: torch.Tensor, start: torch.Tensor,
                      end: torch.Tensor) -> tuple[list[list[int]], list[float]]:
    """The best tag sequence of every sentence of a padded batch (emissions [B, T, K], mask [B, T]) and its
    score. Padded steps keep each row's scores and point back to the same tag, so one backward pass serves
    every row."""
    mask = mask.to(torch.bool)
    B, T, K = emissions.shape
    stay = torch.arange(K, device=emissions.device).expand(B, K)
    best, back = start + emissions[:, 0], []
    for i in range(1, T):
        scores, previous = (best.unsqueeze(2) + transitions).max(dim=1)  # over prev: [B, K]
        real = mask[:, i].unsqueeze(1)
        best = torch.where(real, scores + emissions[:, i], best)
        back.append(torch.where(real, previous, stay))
    final, tag = (best + end).max(dim=1)
    path = [tag]
    for previous in reversed(back):
        tag = previous.gather(1, tag.unsqueeze(1)).squeeze(1)
        path.append(tag)
    rows = torch.stack(path[::-1], dim=1).tolist()
    return [row[:n] for row, n in zip(rows, mask.sum(1).tolist())], final.tolist()


def crf_viterbi_fused(emissions: torch.Tensor, mask: torch.Tensor, transitions: torch.Tensor, start: torch.Tensor,
                      end: torch.Tensor) -> tuple[list[list[int]], list[float]]:
    """``crf_viterbi_batch``, the same paths and scores, in one Triton kernel where Triton runs (``crf_triton``)."""
    if not triton_runs_on(emissions):
        return crf_viterbi_batch(emissions, mask, transitions, start, end)
    from seqmodels.structured.crf_triton import crf_viterbi_triton
    with torch.no_grad():
        path, score = crf_viterbi_triton(emissions, mask, transitions, start, end)
    rows = path.tolist()  # one copy from the device
    return [row[:n] for row, n in zip(rows, mask.sum(1).tolist())], score.tolist()


def crf_viterbi(emissions: torch.Tensor, transitions: torch.Tensor, start: torch.Tensor,
                end: torch.Tensor) -> tuple[list[int], float]:
    """The best tag sequence of one sentence (emissions [T, K]) and its score."""
    paths, scores = crf_viterbi_batch(emissions.unsqueeze(0), emissions.new_ones(1, emissions.shape[0], dtype=torch.bool),
                                      transitions, start, end)
    return paths[0], scores[0]


def hmm_viterbi(log_init: torch.Tensor, log_trans: torch.Tensor, log_emit: torch.Tensor) -> tuple[list[int], float]:
    """The most probable state sequence of an HMM (Eq. 4.78) and its log-probability: a CRF without an end score."""
    return crf_viterbi(log_emit, log_trans, log_init, torch.zeros_like(log_init))
