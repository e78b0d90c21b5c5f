"""Sentence BLEU (Papineni et al., 2002; course notes §3): the geometric mean of clipped n-gram
precisions for n = 1..max_n, times a brevity penalty. No smoothing: one empty precision gives 0."""
import math
from collections import Counter


def _ngrams(tokens: list[str], n: int) -> Counter:
    return Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))


def bleu(candidate: list[str], references: list[list[str]], max_n: int = 4) -> float:
    """BLEU in [0, 1] of one tokenised candidate against one or more tokenised references.

    p_n: candidate n-grams matched, each counted at most as often as in the reference that has it most
    (clipping), over all candidate n-grams. BP = exp(1 - r / c) when the candidate length c is below r,
    the reference length closest to c (ties: the shorter), else 1.
    """
    log_precisions = []
    for n in range(1, max_n + 1):
        counts = _ngrams(candidate, n)
        most_in_a_reference = Counter()
        for reference in references:
            most_in_a_reference |= _ngrams(reference, n)  # | keeps the larger count of each n-gram
        clipped = sum((counts & most_in_a_reference).values())
        if clipped == 0:
            return 0.0
        log_precisions.append(math.log(clipped / sum(counts.values())))
    c = len(candidate)
    r = min((len(reference) for reference in references), key=lambda length: (abs(length - c), length))
    brevity_penalty = 1.0 if c >= r else math.exp(1 - r / c)
    return brevity_penalty * math.exp(sum(log_precisions) / max_n)
