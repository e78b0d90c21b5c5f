"""Multi-query associative recall, MQAR (Arora et al., 2023, "Zoology: Measuring and Improving Recall in
Efficient Language Models", §3.1): the sequence opens with key-value pairs; later each key comes back as a
query, and the model must answer the value that followed it.

One example of ``length`` positions::

    inputs:  k1 v1 k2 v2 ... k_p v_p | filler ... k2 ... filler ... k1 ... filler
    targets: IGNORE ...               | IGNORE ... v2 ... IGNORE ... v1 ... IGNORE

The p keys are distinct; the values are drawn independently (two keys may share a value). Every key is
asked once, at random distinct places after the pairs, in random order; the answer is expected at the query's
own position. Ids: 0 is the filler, 1 .. ``keys`` the keys, ``keys`` + 1 .. ``keys`` + ``values`` the values
(Zoology also draws keys and values from disjoint halves of the vocabulary).
"""
import torch

FILLER, IGNORE = 0, -100


def vocabulary_size(keys: int, values: int) -> int:
    return 1 + keys + values


def associative_recall(n: int, length: int, pairs: int = 4, keys: int = 16, values: int = 16,
                       seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    """``n`` examples: ``(inputs, targets)``, both ``[n, length]`` long integers, seeded."""
    if pairs > keys or 3 * pairs > length:
        raise ValueError(f"MQAR needs pairs <= keys and 3 * pairs <= length (the pairs, then a query for each), "
                         f"got pairs={pairs}, keys={keys}, length={length}")
    generator = torch.Generator().manual_seed(seed)
    key = torch.rand(n, keys, generator=generator).argsort(dim=1)[:, :pairs] + 1  # distinct keys per example
    value = torch.randint(keys + 1, keys + values + 1, (n, pairs), generator=generator)
    inputs = torch.full((n, length), FILLER)
    inputs[:, 0:2 * pairs:2], inputs[:, 1:2 * pairs:2] = key, value
    asked = torch.rand(n, length - 2 * pairs, generator=generator).argsort(dim=1)[:, :pairs] + 2 * pairs
    inputs.scatter_(1, asked, key)  # the i-th key asked at asked[:, i]: places in random order
    targets = torch.full_like(inputs, IGNORE)
    targets.scatter_(1, asked, value)
    return inputs, targets
