"""The which-first data: deterministic, split 80/10/10, labelled by the order of the markers, balanced."""
from seqmodels.data.order import which_first


def test_which_first_is_deterministic_and_split_80_10_10():
    a, b = which_first(500, seed=3), which_first(500, seed=3)
    assert a.train == b.train and a.validation == b.validation and a.test == b.test
    assert (len(a.train), len(a.validation), len(a.test)) == (400, 50, 50)
    assert which_first(500, seed=4).train != a.train
    assert list(a.vocab)[:2] == ["[PAD]", "[UNK]"] and {"A", "B"} <= set(a.vocab)


def test_each_label_says_whether_a_precedes_b_and_lengths_stay_in_range():
    data = which_first(600, length=10, jitter=3, seed=0)
    for tokens, label in data.train + data.validation + data.test:
        assert tokens.count("A") == 1 and tokens.count("B") == 1 and 7 <= len(tokens) <= 13
        assert label == int(tokens.index("A") < tokens.index("B"))
    labels = [label for _, label in data.train]
    assert 0.4 < sum(labels) / len(labels) < 0.6
    assert all(len(tokens) == 2 for tokens, _ in which_first(20, length=1, jitter=0).train)  # at least the markers


def test_swapping_the_markers_flips_the_label_and_keeps_the_bag_of_words():
    for tokens, label in which_first(200, seed=1).train:
        swapped = ["B" if t == "A" else "A" if t == "B" else t for t in tokens]
        assert sorted(swapped) == sorted(tokens)
        assert int(swapped.index("A") < swapped.index("B")) == 1 - label
