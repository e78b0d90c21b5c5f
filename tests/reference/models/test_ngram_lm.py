"""The add-k n-gram baseline against a hand-worked case, chapter 04's unigram baseline and a brute-force count."""
import math
import random

import pytest
from seqmodels.models.ngram_lm import ngram_perplexity
from seqmodels.tasks.language_models import unigram_perplexity
from seqmodels.text.vocab import build_vocab

SPECIALS = ("[PAD]", "[UNK]", "<s>", "</s>")


def brute_force_perplexity(train, held_out, vocab, n, k):
    """Scan every padded training sentence for every held-out (context, target), one at a time."""
    def padded(sentence):
        return ["<s>"] * (n - 1) + [w if w in vocab else "[UNK]" for w in sentence] + ["</s>"]

    train_padded = [padded(s) for s in train]
    targets = len(vocab) - 2  # [PAD] and <s> are never predicted
    total = 0.0
    positions = 0
    for sentence in held_out:
        words = padded(sentence)
        for i in range(n - 1, len(words)):
            context, target = words[i - n + 1:i], words[i]
            context_count = pair_count = 0
            for seen in train_padded:
                for j in range(n - 1, len(seen)):
                    if seen[j - n + 1:j] == context:
                        context_count += 1
                        pair_count += seen[j] == target
            total += math.log((pair_count + k) / (context_count + k * targets))
            positions += 1
    return math.exp(-total / positions)


def test_hand_worked_bigram():
    # train "a b", "a a": bigram targets a|<s> twice, b|a once, </s>|b once, a|a once, </s>|a once.
    # held out "a b": P(a|<s>) = (2+1)/(2+4), P(b|a) = (1+1)/(3+4), P(</s>|b) = (1+1)/(1+4); |V'| = 4 (a b [UNK] </s>)
    train = [["a", "b"], ["a", "a"]]
    vocab = build_vocab(train, specials=SPECIALS)
    expected = (3 / 6 * 2 / 7 * 2 / 5) ** (-1 / 3)
    assert ngram_perplexity(train, [["a", "b"]], vocab, 2) == pytest.approx(expected)


@pytest.mark.parametrize("seed", range(5))
def test_unigram_with_add_one_is_chapter_04s_baseline(seed):
    rng = random.Random(seed)
    train = [[rng.choice("abcde") for _ in range(rng.randint(0, 8))] for _ in range(20)]
    held_out = [[rng.choice("abcdefg") for _ in range(rng.randint(0, 8))] for _ in range(5)]
    vocab = build_vocab(train, specials=SPECIALS)
    assert ngram_perplexity(train, held_out, vocab, 1) == pytest.approx(unigram_perplexity(train, held_out, vocab))


@pytest.mark.parametrize("seed", range(10))
def test_agrees_with_brute_force_counting(seed):
    rng = random.Random(seed)
    train = [[rng.choice("abcd") for _ in range(rng.randint(0, 7))] for _ in range(12)]
    held_out = [[rng.choice("abcde") for _ in range(rng.randint(0, 7))] for _ in range(4)]
    vocab = build_vocab(train, specials=SPECIALS)
    for n in (2, 3, 4):
        for k in (1.0, 0.1):
            assert ngram_perplexity(train, held_out, vocab, n, k) == pytest.approx(
                brute_force_perplexity(train, held_out, vocab, n, k)
            )


def test_bad_order_or_smoothing_gets_a_clear_message():
    vocab = build_vocab([["a"]], specials=SPECIALS)
    with pytest.raises(ValueError, match="n >= 1 and k > 0"):
        ngram_perplexity([["a"]], [["a"]], vocab, 0)
    with pytest.raises(ValueError, match="n >= 1 and k > 0"):
        ngram_perplexity([["a"]], [["a"]], vocab, 2, k=0)
