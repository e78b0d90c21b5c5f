"""A long-range dependency: the label is the first symbol, followed by a long stretch of noise.

To classify ``[c, x_1, ..., x_T]`` a recurrent network must carry ``c`` across T steps.
Elman networks lose it as T grows (vanishing gradients); LSTMs and GRUs keep it through
their gates. The noise symbols never include the class symbols, so only the first position
carries information.
"""
import torch

from seqmodels.data.splits import Splits


def first_symbol(n: int = 2000, length: int = 50, classes: int = 4, noise: int = 10, seed: int = 0,
                 jitter: int = 0) -> Splits:
    """``n`` sequences of ``length`` (± ``jitter``) tokens; label = index of the first token's class."""
    generator = torch.Generator().manual_seed(seed)
    examples = []
    for _ in range(n):
        label = int(torch.randint(classes, (1,), generator=generator))
        size = length + (int(torch.randint(-jitter, jitter + 1, (1,), generator=generator)) if jitter else 0)
        filler = torch.randint(noise, (max(size, 1) - 1,), generator=generator).tolist()
        examples.append(([f"C{label}", *(f"n{i}" for i in filler)], label))
    return Splits.from_examples(examples)
