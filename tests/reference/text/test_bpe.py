"""bpe_train against brute-force counting (every pair recounted over every word at every step, Sennrich et
al.'s Algorithm 1 as written); the five-word worked example by hand; bpe_encode against applying the merges
in training order to the training words; the tokenizer round trip."""
import random
from collections import Counter

import pytest

from seqmodels.text.bpe import BPETokenizer, bpe_encode, bpe_train, merge_pair, word_symbols


def brute_force_bpe(word_counts, num_merges):
    words = {word: word_symbols(word) for word in word_counts}
    merges = []
    for _ in range(num_merges):
        counts = Counter()
        for word, symbols in words.items():
            for pair in zip(symbols, symbols[1:]):
                counts[pair] += word_counts[word]
        if not counts:
            break
        best = max(counts.values())
        pair = min(p for p, c in counts.items() if c == best)
        merges.append(pair)
        words = {word: merge_pair(symbols, pair) for word, symbols in words.items()}
    return merges, words


def test_the_five_word_example_by_hand():
    counts = {"low": 5, "lower": 2, "newest": 6, "widest": 3}
    # (e, s) and (s, t</w>) both occur 9 times: the smaller tuple first; then es t</w> (9), l o (7), and
    # e w ahead of n e and w est</w> (6 each) by tuple order
    assert bpe_train(counts, 4) == [("e", "s"), ("es", "t</w>"), ("l", "o"), ("e", "w")]
    assert bpe_encode("lowest", bpe_train(counts, 4)) == ["lo", "w", "est</w>"]


@pytest.mark.parametrize("seed", range(6))
def test_matches_recounting_every_pair_at_every_step(seed):
    rng = random.Random(seed)
    alphabet = "abcd"[: 2 + seed % 3]
    counts = {"".join(rng.choice(alphabet) for _ in range(rng.randint(1, 7))): rng.randint(1, 9)
              for _ in range(40)}
    expected, segmented = brute_force_bpe(counts, 60)
    assert bpe_train(counts, 60) == expected
    for word, symbols in segmented.items():  # encoding reproduces training's segmentation
        assert bpe_encode(word, expected) == symbols


def test_stops_when_every_word_is_one_symbol():
    merges = bpe_train({"aaaa": 1, "ab": 2}, 100)
    # a a a a</w> holds (a, a) twice: 2, tied with (a, b</w>), and the smaller; it becomes aa a a</w>; then
    # (a, b</w>) 2; then (a, a</w>) ahead of (aa, a), both 1; then aa aa</w>: one symbol each, so it stops
    assert merges == [("a", "a"), ("a", "b</w>"), ("a", "a</w>"), ("aa", "aa</w>")]
    assert all(len(bpe_encode(w, merges)) == 1 for w in ("aaaa", "ab"))
    assert bpe_train({"x": 3}, 5) == []


def test_overlapping_pairs_merge_left_to_right():
    assert merge_pair(["a", "a", "a</w>"], ("a", "a")) == ["aa", "a</w>"]
    assert bpe_train({"aaa": 1}, 1) == [("a", "a")]  # counted once (a a) and (a a</w>) differ


def test_unseen_characters_stay_symbols_and_the_tokenizer_round_trips():
    tokenizer = BPETokenizer.train("the cat sat on the mat the end".split(), 10)
    assert bpe_encode("thé", tokenizer.merges)[-1] == "é</w>"
    ids = tokenizer.encode(["the", "mat", "sat"])
    assert tokenizer.decode(ids) == "the mat sat"
    assert tokenizer.vocab["[UNK]"] in tokenizer.encode(["é"])
