"""BIO entity tagging where label transitions matter (chapters 06 and 10).

Sentences mention people ("dr ada lovelace"), places ("new york city") and organisations
("the royal society") of one to three words, tagged B-X on the first word and I-X after it.
Some words are ambiguous ("jordan", "washington", "lincoln" can be a person or a place), so
per-token decisions make invalid sequences (I-LOC after B-PER); a CRF's transition scores
and a bidirectional encoder's right context fix them.
"""
import torch

from seqmodels.data.splits import Splits

ENTITIES = {
    "PER": [["ada", "lovelace"], ["alan", "turing"], ["jordan"], ["washington"], ["lincoln"], ["dr", "grace", "hopper"],
            ["marie", "curie"], ["jordan", "peele"]],
    "LOC": [["new", "york", "city"], ["jordan"], ["washington"], ["lincoln"], ["paris"], ["cape", "town"],
            ["lake", "geneva"], ["rio", "de", "janeiro"]],
    "ORG": [["the", "royal", "society"], ["unesco"], ["lincoln", "labs"], ["washington", "post"], ["acme", "corp"],
            ["red", "cross"]],
}
TEMPLATES = [  # X is replaced by an entity of the type that follows it
    "X:PER visited X:LOC last week", "X:PER works for X:ORG", "X:ORG opened an office in X:LOC",
    "we met X:PER in X:LOC", "X:LOC is far from X:LOC", "X:PER wrote to X:PER", "news from X:ORG about X:PER",
]
TAGS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG"]


def tagged_sentence(generator: torch.Generator) -> tuple[list[str], list[str]]:
    """Tokens and their BIO tags."""
    template = TEMPLATES[int(torch.randint(len(TEMPLATES), (1,), generator=generator))]
    tokens, tags = [], []
    for slot in template.split():
        if slot.startswith("X:"):
            kind = slot[2:]
            words = ENTITIES[kind][int(torch.randint(len(ENTITIES[kind]), (1,), generator=generator))]
            tokens += words
            tags += [f"B-{kind}"] + [f"I-{kind}"] * (len(words) - 1)
        else:
            tokens.append(slot)
            tags.append("O")
    return tokens, tags


def entities(n: int = 3000, seed: int = 0) -> Splits:
    """``n`` tagged sentences, split 80/10/10; each example is (tokens, tags)."""
    generator = torch.Generator().manual_seed(seed)
    return Splits.from_examples([tagged_sentence(generator) for _ in range(n)])
