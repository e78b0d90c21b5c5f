"""Date normalisation pairs for attention (chapter 11): a date written many ways -> ISO 8601.

    "23 November 2026", "Nov 23, 2026", "23/11/2026", "monday 23 nov 26" -> "2026-11-23"

Source tokens are characters, so the encoder-decoder must learn to find the day, the month
and the year wherever each format puts them; the attention map shows where it looks.
"""
import datetime

import torch

from seqmodels.data.splits import Splits

MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december"]
DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
FORMATS = [
    lambda d: f"{d.day} {MONTHS[d.month - 1]} {d.year}",
    lambda d: f"{MONTHS[d.month - 1][:3]} {d.day}, {d.year}",
    lambda d: f"{d.day:02d}/{d.month:02d}/{d.year}",
    lambda d: f"{DAYS[d.weekday()]} {d.day} {MONTHS[d.month - 1][:3]} {d.year % 100:02d}",
    lambda d: f"{MONTHS[d.month - 1]} {d.day} {d.year}",
    lambda d: f"{d.year}.{d.month}.{d.day}",
]


def random_date(generator: torch.Generator, first: int = 1950, last: int = 2049) -> datetime.date:
    start, end = datetime.date(first, 1, 1).toordinal(), datetime.date(last, 12, 31).toordinal()
    return datetime.date.fromordinal(start + int(torch.randint(end - start + 1, (1,), generator=generator)))


def date_pairs(n: int = 5000, seed: int = 0) -> Splits:
    """``n`` (source characters, target characters) pairs, split 80/10/10; vocab over source characters."""
    generator = torch.Generator().manual_seed(seed)
    examples = []
    for _ in range(n):
        date = random_date(generator)
        written = FORMATS[int(torch.randint(len(FORMATS), (1,), generator=generator))](date)
        examples.append((list(written), list(date.isoformat())))
    return Splits.from_examples(examples)
