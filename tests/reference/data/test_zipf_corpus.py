"""The synthetic Zipf corpus: deterministic, the requested size, and Zipf-shaped."""
from collections import Counter

from seqmodels.data.zipf_corpus import pseudo_words, zipf_corpus


def test_same_seed_same_corpus_other_seed_other_corpus():
    assert zipf_corpus(20, seed=3) == zipf_corpus(20, seed=3)
    assert zipf_corpus(20, seed=3) != zipf_corpus(20, seed=4)


def test_shape_and_distinct_pseudo_words():
    corpus = zipf_corpus(7, doc_length=5, num_types=50)
    assert len(corpus) == 7 and all(len(doc) == 5 for doc in corpus)
    assert len(set(pseudo_words(300))) == 300


def test_frequencies_fall_with_rank_like_one_over_r():
    counts = Counter(t for doc in zipf_corpus(2000, doc_length=10, num_types=1000, exponent=1.0) for t in doc)
    top = [n for _, n in counts.most_common(4)]
    assert 1.6 < top[0] / top[1] < 2.5 and 2.3 < top[0] / top[2] < 3.8  # 1/r: ratios near 2 and 3
