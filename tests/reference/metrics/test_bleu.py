"""Sentence BLEU against hand-computed cases and sacrebleu (no tokenisation, no smoothing, all orders)."""
import math
import random

import pytest
from sacrebleu.metrics import BLEU

from seqmodels.metrics.bleu import bleu



def test_the_classic_clipping_example():
    # "the the the ..." against "the cat is on the mat": the unigram precision is clipped to 2/7
    candidate = ["the"] * 7
    assert bleu(candidate, [["the", "cat", "is", "on", "the", "mat"]], max_n=1) == pytest.approx(2 / 7)


def test_hand_computed_with_brevity_penalty():
    # p1 = 3/4 ("down" unmatched), p2 = 2/3, c = 4 against the closest reference length 6: BP = exp(1 - 6/4)
    candidate = "the cat sat down".split()
    references = ["the cat sat on the mat".split(), "a cat sat on a mat today ok".split()]
    expected = math.exp(1 - 6 / 4) * math.sqrt(3 / 4 * 2 / 3)
    assert bleu(candidate, references, max_n=2) == pytest.approx(expected)


def test_identical_sentences_score_one_and_a_missing_order_scores_zero():
    sentence = "one two three four five".split()
    assert bleu(sentence, [sentence]) == pytest.approx(1.0)
    assert bleu(["one", "two", "three"], [sentence]) == 0.0  # no 4-grams at all
    assert bleu([], [sentence]) == 0.0


def test_closest_reference_length_ties_go_to_the_shorter():
    candidate = "a b c d".split()
    # lengths 3 and 5 are both 1 away from 4: r = 3, so no penalty (r = 5 would give exp(1 - 5/4))
    assert bleu(candidate, ["a b c".split(), "a b c d e".split()], max_n=1) == pytest.approx(1.0)
    assert bleu(candidate, ["a b c d e".split()], max_n=1) == pytest.approx(math.exp(1 - 5 / 4))


@pytest.mark.parametrize("seed", range(40))
def test_agrees_with_sacrebleu(seed):
    rng = random.Random(seed)
    words = "a b c d e".split()
    candidate = [rng.choice(words) for _ in range(rng.randint(1, 12))]
    references = [[rng.choice(words) for _ in range(rng.randint(1, 12))] for _ in range(rng.randint(1, 3))]
    for max_n in (1, 2, 4):
        expected = BLEU(tokenize="none", smooth_method="none", effective_order=False, max_ngram_order=max_n)
        score = expected.sentence_score(" ".join(candidate), [" ".join(r) for r in references]).score / 100
        assert bleu(candidate, references, max_n=max_n) == pytest.approx(score, abs=1e-9)
