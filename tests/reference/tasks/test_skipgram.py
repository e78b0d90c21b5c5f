"""The skip-gram tasks learn vectors that answer the generated corpus's analogies (king - man + woman = queen),
and vectors from real news that beat the standard benchmarks' baselines."""
import torch

from seqmodels.data.word_benchmarks import analogy_sections
from seqmodels.tasks.skipgram import NEWS, SKIPGRAM, SKIPGRAM_NEWS, news_vocabulary
from seqmodels.training import Trainer


def test_a_short_training_answers_most_analogies():
    device = torch.device("cpu")
    setup = SKIPGRAM.build(device=device, seed=0)
    with torch.no_grad():
        before = setup.evaluate(setup.model, "validation")
    trainer = Trainer(setup.model, setup.step, lr=3e-3, device=device, progress=False)
    trainer.fit(setup.train, epochs=2)
    with torch.no_grad():
        after = setup.evaluate(trainer.model, "test")
    assert after["test_loss"] < before["validation_loss"] - 1.0
    assert after["test_analogy_accuracy"] > 0.5, after  # about 0.75 after two epochs, 0.97 after five


def test_vectors_from_real_news_beat_the_baselines_of_the_benchmarks():
    """60k words are far too few for good vectors (see chapter 03), but the task's five epochs answer some
    analogies, where always naming the most frequent word answers none and a random word about 1 in 3,000,
    and rank WordSim-353's related pairs above its unrelated ones more often than not."""
    device = torch.device("cpu")
    setup = SKIPGRAM_NEWS.build(device=device, seed=0)
    trainer = Trainer(setup.model, setup.step, lr=SKIPGRAM_NEWS.lr, device=device, progress=False)
    trainer.fit(setup.train, epochs=NEWS.epochs)
    with torch.no_grad():
        scores = setup.evaluate(trainer.model, "test")
    _, vocab = news_vocabulary(NEWS.min_count)
    most_frequent = next(iter(vocab))
    questions = [q for section in analogy_sections().values() for q in section if all(w in vocab for w in q)]
    assert scores["test_analogy_questions"] == len(questions) > 300
    baseline = max(sum(d == most_frequent for *_, d in questions) / len(questions), 1 / (len(vocab) - 3))
    assert scores["test_analogy_accuracy"] > 2 * baseline, scores
    assert scores["test_wordsim353_spearman"] > 0.1 and scores["test_wordsim353_pairs"] > 100, scores
