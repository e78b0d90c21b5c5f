"""Synthetic "speech" for CTC (chapter 09): each symbol sounds for a variable number of frames.

A symbol is a prototype vector in R^F; saying it emits 1-6 noisy copies of that vector, and
silences of 0-3 frames of noise fall between symbols. The recogniser sees only the frames
and must output the symbol sequence: the alignment is unknown, which is what CTC sums over.
Repeated symbols ("l l" in "hello") are separated by at least one silent frame, as CTC's
blank requires.
"""
import torch

from seqmodels.data.splits import Splits


def prototypes(symbols: int, features: int, seed: int = 0) -> torch.Tensor:
    """One unit-norm vector per symbol, ``[symbols, features]``."""
    vectors = torch.randn(symbols, features, generator=torch.Generator().manual_seed(seed))
    return vectors / vectors.norm(dim=1, keepdim=True)


def utterance_with_segments(labels: list[int], protos: torch.Tensor, generator: torch.Generator,
                            noise: float = 0.3) -> tuple[torch.Tensor, list[tuple[int, int]]]:
    """Frames ``[T, F]`` for the symbol sequence ``labels``, and the true alignment: for every label the
    frames ``(first, end)`` (end excluded) in which it sounds, which the recogniser never sees."""
    frames, segments = [], []
    for position, label in enumerate(labels):
        repeat = position > 0 and labels[position - 1] == label
        silence = int(torch.randint(1 if repeat else 0, 4, (1,), generator=generator))
        frames += [torch.zeros(protos.shape[1])] * silence
        duration = int(torch.randint(1, 7, (1,), generator=generator))
        segments.append((len(frames), len(frames) + duration))
        frames += [protos[label]] * duration
    stacked = torch.stack(frames)
    return stacked + noise * torch.randn(stacked.shape, generator=generator), segments


def utterance(labels: list[int], protos: torch.Tensor, generator: torch.Generator,
              noise: float = 0.3) -> torch.Tensor:
    """Frames ``[T, F]`` for the symbol sequence ``labels``."""
    return utterance_with_segments(labels, protos, generator, noise)[0]


def speech(n: int = 2000, symbols: int = 10, features: int = 16, max_symbols: int = 8, seed: int = 0) -> Splits:
    """``n`` (frames [T, F], symbol labels) utterances, split 80/10/10 (no vocabulary: the inputs are frames)."""
    generator = torch.Generator().manual_seed(seed)
    protos = prototypes(symbols, features, seed)
    examples = []
    for _ in range(n):
        labels = torch.randint(symbols, (int(torch.randint(1, max_symbols + 1, (1,), generator=generator)),),
                               generator=generator).tolist()
        examples.append((utterance(labels, protos, generator), labels))
    return Splits.from_examples(examples, with_vocab=False)
