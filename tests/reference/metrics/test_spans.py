"""Entity spans and span F1 against hand-worked cases and a brute-force oracle over every (type, start, end)."""
import random

import pytest
from seqmodels.metrics.spans import bio_spans, span_f1

TAGS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]


def brute_force_spans(tags):
    """Every (type, start, end) that satisfies the CoNLL definition, checked one candidate at a time."""
    def kind(i):
        return tags[i][2:] if 0 <= i < len(tags) and tags[i] != "O" else None

    spans = set()
    for start in range(len(tags)):
        for end in range(start + 1, len(tags) + 1):
            x = kind(start)
            if x is None:
                continue
            opens = tags[start] == f"B-{x}" or kind(start - 1) != x
            inside = all(tags[i] == f"I-{x}" for i in range(start + 1, end))
            closed = end == len(tags) or tags[end] != f"I-{x}"
            if opens and inside and closed:
                spans.add((x, start, end))
    return spans


def test_hand_worked_sentence():
    # ada lovelace visited new york city ; washington post
    tags = ["B-PER", "I-PER", "O", "B-LOC", "I-LOC", "I-LOC", "O", "B-ORG", "I-ORG"]
    assert bio_spans(tags) == {("PER", 0, 2), ("LOC", 3, 6), ("ORG", 7, 9)}


def test_an_inside_tag_without_its_beginning_opens_an_entity_as_in_conlleval():
    assert bio_spans(["I-PER", "I-PER", "O"]) == {("PER", 0, 2)}
    assert bio_spans(["B-PER", "I-LOC"]) == {("PER", 0, 1), ("LOC", 1, 2)}
    assert bio_spans(["B-PER", "B-PER"]) == {("PER", 0, 1), ("PER", 1, 2)}


def test_one_wrong_token_loses_the_whole_entity():
    gold = [["B-LOC", "I-LOC", "I-LOC", "O"]]
    predicted = [["B-LOC", "I-LOC", "O", "O"]]  # 3 of 4 tokens right, 0 of 1 entity
    assert span_f1(gold, predicted) == (0.0, 0.0, 0.0)


def test_precision_recall_and_f1_by_hand():
    gold = [["B-PER", "O", "B-LOC"], ["B-LOC", "I-LOC"]]
    predicted = [["B-PER", "O", "O"], ["B-LOC", "I-LOC"]]  # 2 found, both right; 3 expected
    precision, recall, f1 = span_f1(gold, predicted)
    assert (precision, recall) == (1.0, pytest.approx(2 / 3))
    assert f1 == pytest.approx(0.8)


@pytest.mark.parametrize("seed", range(30))
def test_spans_agree_with_brute_force(seed):
    rng = random.Random(seed)
    for _ in range(20):
        tags = [rng.choice(TAGS) for _ in range(rng.randint(0, 9))]
        assert bio_spans(tags) == brute_force_spans(tags), tags


def test_mismatched_lengths_get_a_clear_message():
    with pytest.raises(ValueError, match="one predicted sequence per gold one"):
        span_f1([["O"]], [])
