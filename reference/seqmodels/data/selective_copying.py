"""Selective copying (Gu & Dao, 2023, "Mamba: Linear-Time Sequence Modeling with Selective State Spaces", §3.1
and Figure 2): a few data tokens sit at random places among filler tokens, and the model must repeat them in
order when it is asked to.

One example of ``length`` + ``tokens`` positions::

    inputs:  filler, d1, filler, filler, d2, ..., filler | copy, copy, ..., copy   (``tokens`` copy markers)
    targets: IGNORE at every position of the first part  | d1,   d2,   ..., d_k

The data tokens' places in the first ``length`` positions are random (distinct, kept in order); at the i-th
copy marker the model must output the i-th data token. A time-invariant convolution weighs the past by
distance only, and the distances vary from example to example: the model has to select by content. Ids: 0 is
the filler, 1 the copy marker, 2 .. ``symbols`` + 1 the data symbols (the paper: 16 tokens, 16 symbols,
length 4,096; the course's demo uses fewer).
"""
import torch

FILLER, COPY, IGNORE = 0, 1, -100  # IGNORE: cross-entropy's ignore_index, a position with nothing to predict


def vocabulary_size(symbols: int) -> int:
    return symbols + 2


def selective_copying(n: int, length: int, tokens: int = 4, symbols: int = 8,
                      seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    """``n`` examples: ``(inputs, targets)``, both ``[n, length + tokens]`` long integers, seeded."""
    if not 0 < tokens <= length:
        raise ValueError(f"selective copying needs 0 < tokens <= length, got tokens={tokens}, length={length}")
    generator = torch.Generator().manual_seed(seed)
    places = torch.rand(n, length, generator=generator).argsort(dim=1)[:, :tokens].sort(dim=1).values
    data = torch.randint(2, symbols + 2, (n, tokens), generator=generator)
    inputs = torch.full((n, length + tokens), FILLER)
    inputs.scatter_(1, places, data)
    inputs[:, length:] = COPY
    targets = torch.full_like(inputs, IGNORE)
    targets[:, length:] = data
    return inputs, targets
