"""Word vectors from skip-gram with negative sampling (chapter 03), on generated and on real text.

``skipgram`` trains on seqmodels.data.word_relations' generated sentences. Besides the loss, evaluation
reports how many of that corpus's analogy questions (king - man + woman = queen, paris - france + italy
= rome, ...) the centre vectors answer correctly.

``skipgram-news`` trains on the Lee background corpus of real news (seqmodels.data.news_text) and scores
the centre vectors on the standard benchmarks (seqmodels.data.word_benchmarks): accuracy on the analogy
questions whose four words are in the vocabulary, and Spearman's correlation between cosine similarity
and the human ratings of WordSim-353 and SimLex-999, each with the number of questions or pairs it was
computed on. The benchmarks lie outside the corpus, so training reads all of it and validation and test
report the same scores. As in word2vec, words seen fewer than ``min_count`` times are dropped before the
windows are cut. ``bench/embeddings.py`` trains gensim's ``Word2Vec`` with the same ``NEWS`` settings. The
corpus cannot grow, so ``--scale gpu`` widens the vectors and keeps the batches.
"""
from dataclasses import dataclass

import torch

from seqmodels.data.news_text import news_words
from seqmodels.data.word_benchmarks import analogy_sections, simlex999, wordsim353
from seqmodels.data.word_relations import analogy_questions, relation_corpus
from seqmodels.embeddings.evaluation import analogy_accuracy, similarity_correlation
from seqmodels.embeddings.word2vec import noise_distribution, skipgram_pairs
from seqmodels.models.skipgram import SkipGram
from seqmodels.tasks.base import SCALES, Scale, Setup, Task
from seqmodels.text.vocab import build_vocab, encode
from seqmodels.training import make_loader, to_device

WINDOW, NEGATIVES = 2, 5


@dataclass(frozen=True)
class WordVectorSettings:
    window: int
    dim: int
    min_count: int
    epochs: int
    negatives: int
    batch_size: int


# small enough for a 2-core laptop (about 10 s of training), and the same for gensim in bench/embeddings.py
NEWS = WordVectorSettings(window=5, dim=32, min_count=3, epochs=5, negatives=5, batch_size=1024)


def word_counts(documents: list[list[int]], vocab_size: int) -> torch.Tensor:
    """How often each id occurs in ``documents`` (float, for the noise distribution)."""
    return torch.bincount(torch.tensor([i for ids in documents for i in ids], dtype=torch.long),
                          minlength=vocab_size).float()


def with_negatives(noise: torch.Tensor, negatives: int):
    """A collate function: (center, context) pairs -> centers, contexts and ``negatives`` noise words per pair."""
    def collate(batch, generator: torch.Generator):
        center, context = torch.tensor(batch).T
        drawn = torch.multinomial(noise, len(batch) * negatives, replacement=True, generator=generator)
        return center, context, drawn.view(len(batch), negatives)
    return collate


def step(model, batch):
    return model(*batch), len(batch[0])


def build(device: torch.device, hand_written: bool = False, seed: int = 0, scale: Scale = SCALES["cpu"]) -> Setup:
    n = 10000 * scale.data
    sentences = relation_corpus(n=n, seed=seed)
    words = {"train": sentences[: n * 8 // 10], "validation": sentences[n * 8 // 10: n * 9 // 10],
             "test": sentences[n * 9 // 10:]}
    vocab = build_vocab(words["train"])
    noise = noise_distribution(word_counts([encode(s, vocab) for s in words["train"]], len(vocab)))
    pairs = {split: [p for s in sentences for p in skipgram_pairs(encode(s, vocab), WINDOW)]
             for split, sentences in words.items()}
    collate = with_negatives(noise, NEGATIVES)
    generator = torch.Generator().manual_seed(seed)

    def evaluate(model, split: str = "validation") -> dict[str, float]:
        fixed = torch.Generator().manual_seed(1234)  # the same noise words at every evaluation
        total, count = 0.0, 0
        for batch in make_loader(pairs[split], 1024, lambda b: collate(b, fixed), shuffle=False, device=device):
            total += float(model(*to_device(batch, device))) * len(batch[0])
            count += len(batch[0])
        accuracy, _ = analogy_accuracy(model.E.weight.detach().float(), vocab, analogy_questions())
        return {f"{split}_loss": total / count, f"{split}_analogy_accuracy": accuracy}

    model = SkipGram(len(vocab), 32 * scale.width, hand_written=hand_written)
    return Setup(model, step, make_loader(pairs["train"], 256 * scale.batch, lambda b: collate(b, generator),
                                          seed=seed, device=device), evaluate)


def benchmark_scores(E: torch.Tensor, vocab: dict[str, int], prefix: str = "") -> dict[str, float]:
    """Analogy accuracy and the two rank correlations of the vectors ``E``, each with its coverage."""
    accuracy, asked = analogy_accuracy(E, vocab, [q for section in analogy_sections().values() for q in section])
    scores = {f"{prefix}analogy_accuracy": accuracy, f"{prefix}analogy_questions": asked}
    for name, pairs in (("wordsim353", wordsim353()), ("simlex999", simlex999())):
        correlation, known = similarity_correlation(E, vocab, pairs)
        scores |= {f"{prefix}{name}_spearman": correlation, f"{prefix}{name}_pairs": known}
    return scores


def news_vocabulary(min_count: int) -> tuple[list[list[str]], dict[str, int]]:
    """The news corpus as words, and its words seen at least ``min_count`` times, most frequent first (ids 0..)."""
    documents = news_words()
    return documents, build_vocab(documents, min_freq=min_count, specials=())


def build_news(device: torch.device, hand_written: bool = False, seed: int = 0,
               scale: Scale = SCALES["cpu"]) -> Setup:
    documents, vocab = news_vocabulary(NEWS.min_count)
    ids = [[vocab[w] for w in document if w in vocab] for document in documents]
    noise = noise_distribution(word_counts(ids, len(vocab)))
    pairs = [p for document in ids for p in skipgram_pairs(document, NEWS.window)]
    collate, generator = with_negatives(noise, NEWS.negatives), torch.Generator().manual_seed(seed)

    def evaluate(model, split: str = "validation") -> dict[str, float]:
        return benchmark_scores(model.E.weight.detach().float(), vocab, prefix=f"{split}_")

    model = SkipGram(len(vocab), NEWS.dim * scale.width, hand_written=hand_written)
    return Setup(model, step, make_loader(pairs, NEWS.batch_size, lambda b: collate(b, generator),
                                          seed=seed, device=device), evaluate)


SKIPGRAM = Task("skipgram", f"skip-gram with {NEGATIVES} negative samples, window {WINDOW} (chapter 03)", build,
                epochs=5)
SKIPGRAM_NEWS = Task("skipgram-news", f"skip-gram on 60k words of real news, window {NEWS.window}, scored on "
                     "questions-words, WordSim-353 and SimLex-999 (chapter 03)", build_news, epochs=NEWS.epochs)
