"""Benchmark scores of word vectors: Spearman's correlation against SciPy's, analogy accuracy and coverage."""
import pytest
import torch
from scipy.stats import spearmanr

from seqmodels.embeddings.evaluation import analogy_accuracy, average_ranks, similarity_correlation, spearman


def test_tied_values_share_their_mean_rank():
    assert average_ranks(torch.tensor([10.0, 30.0, 20.0, 30.0])).tolist() == [1.0, 3.5, 2.0, 3.5]


@pytest.mark.parametrize("seed", range(5))
def test_spearman_agrees_with_scipy_with_and_without_ties(seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(40, generator=g)
    y = x + torch.randn(40, generator=g)
    tied = torch.randint(0, 6, (40,), generator=g).float()  # many ties, as human ratings have
    for a, b in ((x, y), (tied, y), (tied, tied.flip(0))):
        assert spearman(a, b) == pytest.approx(spearmanr(a.numpy(), b.numpy()).statistic, abs=1e-12)


# royal, female, person: the hand-made table of chapter 03
VOCAB = {"man": 0, "woman": 1, "king": 2, "queen": 3, "apple": 4}
E = torch.tensor([[0.0, 0, 1], [0, 1, 1], [1, 0, 1], [1, 1, 1], [0.2, 0.1, -1]])


def test_analogy_accuracy_counts_only_questions_whose_words_have_vectors():
    questions = [("man", "woman", "king", "queen"), ("woman", "man", "queen", "king"),
                 ("man", "king", "woman", "apple"), ("man", "woman", "boy", "girl")]
    assert analogy_accuracy(E, VOCAB, questions) == (2 / 3, 3)
    assert analogy_accuracy(E, VOCAB, [("boy", "girl", "man", "woman")]) == (0.0, 0)


def test_similarity_correlation_ranks_cosines_against_ratings():
    pairs = [("king", "queen", 9.0), ("man", "woman", 8.0), ("king", "apple", 1.0), ("cat", "dog", 7.0)]
    correlation, known = similarity_correlation(E, VOCAB, pairs)
    assert known == 3 and correlation == pytest.approx(1.0)  # cosines 0.82, 0.71, -0.61 in the ratings' order
    assert similarity_correlation(E, VOCAB, [("king", "queen", 9.0)]) == (0.0, 1)
