"""Greedy decoding and beam search with length normalisation and a coverage penalty (course notes §3;
Pingali's decoder; Wu et al., 2016).

Both search over a model given as ``step(prefix) -> log_probs [V]``: the log-probabilities of the
next token after ``prefix``, which starts with ``bos``. Returned token lists leave ``bos`` out and
keep ``eos`` when it was produced; a hypothesis ends at ``eos`` or after ``max_len`` tokens.

The coverage penalty (not graded; chapter 11) needs a second view of an attention model,
``attention(prefix) -> weights [S]``: how the decoder spread its attention over the S source positions
when it predicted the token after ``prefix``. A hypothesis y has covered source position j by
c_j = sum_t a_{t,j}, the attention it received at all of y's steps, and

    cp(y) = beta * sum_j log min(c_j, 1)        (Wu et al., 2016, Eq. 14)

is 0 when every position got a total weight of at least 1, and very negative when some position was
hardly looked at: an output that skipped part of the input. Looking at a position twice earns
nothing beyond 1, so an output that repeats itself, attending to the same place again instead of
moving on, leaves other positions uncovered and pays for that too.
"""
from typing import Callable

import torch

Step = Callable[[list[int]], torch.Tensor]
Attention = Callable[[list[int]], torch.Tensor]


def greedy_decode(step: Step, bos: int, eos: int, max_len: int) -> list[int]:
    """The most likely next token, one step at a time, until ``eos`` or ``max_len`` tokens."""
    tokens: list[int] = []
    while len(tokens) < max_len and (not tokens or tokens[-1] != eos):
        tokens.append(int(step([bos, *tokens]).argmax()))
    return tokens


def coverage_penalty(attention: Attention | None, bos: int, tokens: list[int], beta: float) -> float:
    """cp(y) = beta * sum_j log min(c_j, 1), c_j the attention source position j got while y was written
    (exactly 0 when beta is 0, even for a position that got no attention at all, and then ``attention``
    is not called and may be None)."""
    if not beta:
        return 0.0
    coverage = sum(attention([bos, *tokens[:t]]) for t in range(len(tokens)))
    return beta * float(coverage.clamp(max=1.0).log().sum())


def beam_search(step: Step, bos: int, eos: int, beam_size: int, max_len: int, alpha: float = 0.0, *,
                attention: Attention | None = None, beta: float = 0.0) -> list[tuple[list[int], float]]:
    """The ``beam_size`` best finished hypotheses as (tokens, log P), best first by log P / len^alpha
    (plus the coverage penalty ``cp`` with weight ``beta`` when ``attention`` is given).

    Each step extends every live hypothesis by every token and keeps the ``beam_size`` extensions
    with the highest log P; kept ones that end in ``eos`` are finished and leave the beam. After
    ``max_len`` steps the hypotheses still live count as finished. Like alpha, beta only reorders the
    finished hypotheses: the returned score stays the plain log P.
    """
    if beta and attention is None:
        raise ValueError("a coverage penalty (beta != 0) needs the model's attention(prefix) function")
    live: list[tuple[list[int], float]] = [([], 0.0)]
    finished: list[tuple[list[int], float]] = []
    for _ in range(max_len):
        extensions = [(tokens + [token], score + log_p)
                      for tokens, score in live
                      for token, log_p in enumerate(step([bos, *tokens]).tolist())]
        kept = sorted(extensions, key=lambda hypothesis: -hypothesis[1])[:beam_size]  # stable: ties keep order
        finished += [h for h in kept if h[0][-1] == eos]
        live = [h for h in kept if h[0][-1] != eos]
        if not live:
            break
    finished += live
    ranked = sorted(finished, key=lambda h: -(h[1] / len(h[0]) ** alpha + coverage_penalty(attention, bos, h[0], beta)))
    return ranked[:beam_size]
