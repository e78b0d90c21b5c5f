"""Greedy decoding and beam search with length normalisation (course notes §3; Pingali's decoder).

Both search over a model given as ``step(prefix) -> log_probs [V]``: the log-probabilities of the
next token after ``prefix``, which starts with ``bos``. Returned token lists leave ``bos`` out and
keep ``eos`` when it was produced; a hypothesis ends at ``eos`` or after ``max_len`` tokens.
"""
from typing import Callable

import torch

Step = Callable[[list[int]], torch.Tensor]


def greedy_decode(step: Step, bos: int, eos: int, max_len: int) -> list[int]:
    """The most likely next token, one step at a time, until ``eos`` or ``max_len`` tokens."""
    tokens: list[int] = []
    while len(tokens) < max_len and (not tokens or tokens[-1] != eos):
        tokens.append(int(step([bos, *tokens]).argmax()))
    return tokens


def beam_search(step: Step, bos: int, eos: int, beam_size: int, max_len: int,
                alpha: float = 0.0) -> list[tuple[list[int], float]]:
    """The ``beam_size`` best finished hypotheses as (tokens, log P), best first by log P / len^alpha.

    Each step extends every live hypothesis by every token and keeps the ``beam_size`` extensions
    with the highest log P; kept ones that end in ``eos`` are finished and leave the beam. After
    ``max_len`` steps the hypotheses still live count as finished.
    """
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
    return sorted(finished, key=lambda h: -h[1] / len(h[0]) ** alpha)[:beam_size]
