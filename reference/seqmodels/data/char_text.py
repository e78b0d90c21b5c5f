"""Text for character-level language models (chapters 04 and 07), generated from a small grammar.

Sentences like "the old robot quietly paints a green bridge near the river." follow a fixed
grammar with agreement ("a" vs "an", "-s" on verbs after a singular subject), so a character
model has real structure to learn (spelling, word boundaries, agreement) without shipping
any text or licence.
"""
import torch

from seqmodels.data.splits import Splits

ADJECTIVES = ["old", "young", "green", "quiet", "clever", "tiny", "orange", "ancient", "brave", "lazy"]
NOUNS = ["robot", "teacher", "river", "bridge", "owl", "engineer", "apple", "island", "poet", "garden"]
VERBS = ["paint", "visit", "greet", "build", "follow", "admire", "draw", "find"]
ADVERBS = ["quietly", "often", "never", "slowly", "gladly"]
PLACES = ["near the river", "in the garden", "on the island", "at night", "after lunch"]


def _pick(options: list[str], generator: torch.Generator) -> str:
    return options[int(torch.randint(len(options), (1,), generator=generator))]


def _noun_phrase(generator: torch.Generator) -> tuple[str, bool]:
    """A noun phrase and whether it is plural."""
    plural = bool(torch.rand(1, generator=generator) < 0.3)
    words = [_pick(ADJECTIVES, generator)] * bool(torch.rand(1, generator=generator) < 0.6) + [_pick(NOUNS, generator)]
    if plural:
        return "the " + " ".join(words) + "s", True
    article = "the" if torch.rand(1, generator=generator) < 0.5 else ("an" if words[0][0] in "aeiou" else "a")
    return f"{article} {' '.join(words)}", False


def sentence(generator: torch.Generator) -> str:
    subject, plural = _noun_phrase(generator)
    verb = _pick(VERBS, generator) + ("" if plural else "s")
    adverb = _pick(ADVERBS, generator) + " " if torch.rand(1, generator=generator) < 0.4 else ""
    place = " " + _pick(PLACES, generator) if torch.rand(1, generator=generator) < 0.5 else ""
    return f"{subject} {adverb}{verb} {_noun_phrase(generator)[0]}{place}."


def char_text(n: int = 3000, seed: int = 0) -> Splits:
    """``n`` sentences as (characters, sentence) pairs, split 80/10/10; vocab over characters."""
    generator = torch.Generator().manual_seed(seed)
    sentences = [sentence(generator) for _ in range(n)]
    return Splits.from_examples([(list(s), s) for s in sentences])
