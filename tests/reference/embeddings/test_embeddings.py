"""Word-embedding references against brute force and PyTorch: similarity, pairs, noise, NS loss, GloVe."""
import math

import pytest
import torch
from torch.nn import functional as F

from seqmodels.embeddings.glove import glove_loss
from seqmodels.embeddings.similarity import analogy, cosine_similarity, most_similar
from seqmodels.embeddings.word2vec import negative_sampling_loss, noise_distribution, skipgram_pairs


def test_cosine_similarity_matches_pytorch_and_handles_zero_vectors():
    u, v = torch.randn(4, 3, dtype=torch.float64), torch.randn(4, 3, dtype=torch.float64)
    torch.testing.assert_close(cosine_similarity(u, v), F.cosine_similarity(u, v, dim=-1))
    assert cosine_similarity(torch.zeros(3), torch.ones(3)).item() == 0.0


def test_most_similar_is_a_sorted_brute_force_search():
    E = torch.randn(20, 5)
    q = torch.randn(5)
    scores = [(cosine_similarity(E[i], q).item(), i) for i in range(20) if i not in (3, 7)]
    assert most_similar(q, E, 4, exclude=(3, 7)) == [i for _, i in sorted(scores, reverse=True)[:4]]


def test_analogy_on_constructed_vectors():
    vocab = {"man": 0, "woman": 1, "king": 2, "queen": 3, "apple": 4}
    E = torch.tensor([[1.0, 0, 0], [1.0, 1, 0], [1.0, 0, 1], [1.0, 1, 1], [-1.0, 0, 0]])
    assert analogy("man", "woman", "king", E, vocab) == ["queen"]


def test_skipgram_pairs_in_reading_order():
    assert skipgram_pairs([1, 2, 3], 1) == [(1, 2), (2, 1), (2, 3), (3, 2)]
    assert skipgram_pairs([5], 2) == [] and len(skipgram_pairs(list(range(10)), 2)) == 2 * (2 * 10 - 3)


def test_noise_distribution_is_the_three_quarter_power_unigram():
    p = noise_distribution(torch.tensor([16.0, 1.0, 0.0]))
    torch.testing.assert_close(p, torch.tensor([8.0, 1.0, 0.0]) / 9)


def test_negative_sampling_loss_matches_a_loop():
    g = torch.Generator().manual_seed(0)
    c, o, n = (torch.randn(*s, dtype=torch.float64, generator=g) for s in ((3, 4), (3, 4), (3, 2, 4)))
    expected = sum(-math.log(torch.sigmoid(c[b] @ o[b])) - sum(math.log(torch.sigmoid(-c[b] @ n[b, k]))
                                                               for k in range(2)) for b in range(3)) / 3
    assert negative_sampling_loss(c, o, n).item() == pytest.approx(expected, rel=1e-12)


def test_glove_loss_matches_a_loop_over_observed_pairs():
    g = torch.Generator().manual_seed(1)
    W, Wc = torch.randn(3, 2, dtype=torch.float64, generator=g), torch.randn(3, 2, dtype=torch.float64, generator=g)
    b, bc = torch.randn(3, dtype=torch.float64, generator=g), torch.randn(3, dtype=torch.float64, generator=g)
    X = torch.tensor([[0.0, 5, 200], [1, 0, 0], [50, 2, 0]], dtype=torch.float64)
    expected = sum(min(1.0, (X[i, j] / 100) ** 0.75) * (W[i] @ Wc[j] + b[i] + bc[j] - math.log(X[i, j])) ** 2
                   for i in range(3) for j in range(3) if X[i, j] > 0)
    assert glove_loss(W, Wc, b, bc, X).item() == pytest.approx(float(expected), rel=1e-12)


def test_unseen_words_are_never_noise_even_at_power_zero():
    from seqmodels.embeddings.word2vec import noise_distribution
    torch.testing.assert_close(noise_distribution(torch.tensor([0.0, 2.0, 8.0]), power=0.0),
                               torch.tensor([0.0, 0.5, 0.5]))
