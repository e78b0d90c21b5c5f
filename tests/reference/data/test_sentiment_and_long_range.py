"""Generated data sets: deterministic, split without overlap, labelled by their stated rule."""
import torch

from seqmodels.data.long_range import first_symbol
from seqmodels.data.sentiment import NEGATIVE, POSITIVE, sentence, sentiment


def rule(tokens: list[str]) -> int:
    """The sentiment rule, restated independently: the last clause's adjective, flipped by a 'not' before it."""
    clause = tokens[tokens.index("but") + 1:] if "but" in tokens else tokens
    adjective = clause[-1]
    assert adjective in POSITIVE or adjective in NEGATIVE
    return int((adjective in POSITIVE) != ("not" in clause))


def test_sentiment_is_deterministic_and_split_80_10_10():
    a, b = sentiment(500, seed=3), sentiment(500, seed=3)
    assert a.train == b.train and a.test == b.test
    assert (len(a.train), len(a.validation), len(a.test)) == (400, 50, 50)
    assert sentiment(500, seed=4).train != a.train
    assert list(a.vocab)[:2] == ["[PAD]", "[UNK]"] and "but" in a.vocab


def test_every_label_follows_negation_and_the_last_clause():
    data = sentiment(1000, seed=0)
    for tokens, label in data.train + data.validation + data.test:
        assert label == rule(tokens), tokens
    labels = [label for _, label in data.train]
    assert 0.4 < sum(labels) / len(labels) < 0.6


def test_swapping_the_clauses_can_flip_the_label_with_the_same_bag_of_words():
    g = torch.Generator().manual_seed(1)
    for _ in range(200):
        tokens, label = sentence(g, contrast=1.0)
        cut = tokens.index("but")
        swapped = tokens[cut + 1:] + ["but"] + tokens[:cut]
        assert sorted(swapped) == sorted(tokens)
        if rule(swapped) != label:
            return
    raise AssertionError("no order-sensitive pair found")


def test_first_symbol_task_puts_the_label_first_and_only_there():
    data = first_symbol(300, length=30, classes=3, jitter=5, seed=2)
    for tokens, label in data.train + data.test:
        assert tokens[0] == f"C{label}" and all(t.startswith("n") for t in tokens[1:])
        assert 25 <= len(tokens) <= 35
    assert first_symbol(300, length=30, classes=3, jitter=5, seed=2).train == data.train
