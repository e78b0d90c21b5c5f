"""Sentiment sentences where negation and word order decide the label.

Each sentence describes a film with one or two clauses: "the film is good", "the plot
was not bad", "the film is good but the ending was dull". A clause's polarity is its
adjective's, flipped by "not"; with "but", the second clause decides (the contrast
marker shifts the weight to what follows it). So "good but dull" is negative and "dull but
good" positive: the same bag of words with opposite labels, which an averaged-embedding
classifier cannot separate and an order-aware model can.
"""
import torch

from seqmodels.data.splits import Splits

POSITIVE = ["good", "great", "fine", "superb", "moving", "clever", "fun", "charming"]
NEGATIVE = ["bad", "dull", "awful", "boring", "weak", "silly", "bland", "tedious"]
SUBJECTS = ["the film", "the plot", "the acting", "the ending", "the music", "the script", "the cast"]
VERBS = ["is", "was", "seems", "felt"]


def _pick(options: list[str], generator: torch.Generator) -> str:
    return options[int(torch.randint(len(options), (1,), generator=generator))]


def _clause(generator: torch.Generator) -> tuple[list[str], int]:
    """A clause and its polarity (1 positive, 0 negative)."""
    positive = bool(torch.rand(1, generator=generator) < 0.5)
    negated = bool(torch.rand(1, generator=generator) < 0.4)
    words = [*_pick(SUBJECTS, generator).split(), _pick(VERBS, generator)]
    words += ["not"] * negated + [_pick(POSITIVE if positive else NEGATIVE, generator)]
    return words, int(positive != negated)


def sentence(generator: torch.Generator, contrast: float = 0.5) -> tuple[list[str], int]:
    """One sentence and its label: the last clause's polarity."""
    words, label = _clause(generator)
    if torch.rand(1, generator=generator) < contrast:
        second, label = _clause(generator)
        words += ["but", *second]
    return words, label


def sentiment(n: int = 4000, contrast: float = 0.5, seed: int = 0) -> Splits:
    """``n`` labelled sentences (a fraction ``contrast`` with two clauses), split 80/10/10."""
    generator = torch.Generator().manual_seed(seed)
    return Splits.from_examples([sentence(generator, contrast) for _ in range(n)])
