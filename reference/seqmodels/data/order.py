"""Which marker comes first? A task that only word order can solve.

Each sequence holds the two markers "A" and "B" once each, at random positions among filler
words ``w0 ... w9``; the label is 1 when "A" comes before "B" and 0 otherwise. Both orders
have the same bag of words (and the same distribution of fillers and lengths), so any model
that ignores positions, e.g. mean or max pooling of word vectors, is exactly at chance: it
sees the same input for "w3 A w1 B" and "w3 B w1 A". A model that knows where each word sits
(positional encodings, chapter 08) can learn the rule.
"""
import torch

from seqmodels.data.splits import Splits

MARKERS = ("A", "B")


def which_first(n: int = 2000, length: int = 12, jitter: int = 4, filler: int = 10, seed: int = 0) -> Splits:
    """``n`` sequences of ``length`` (± ``jitter``, at least 2) tokens; label 1 if "A" precedes "B"; split 80/10/10."""
    generator = torch.Generator().manual_seed(seed)
    examples = []
    for _ in range(n):
        size = length + (int(torch.randint(-jitter, jitter + 1, (1,), generator=generator)) if jitter else 0)
        size = max(size, 2)
        tokens = [f"w{i}" for i in torch.randint(filler, (size,), generator=generator).tolist()]
        where_a, where_b = torch.randperm(size, generator=generator)[:2].tolist()
        tokens[where_a], tokens[where_b] = MARKERS
        examples.append((tokens, int(where_a < where_b)))
    return Splits.from_examples(examples)
