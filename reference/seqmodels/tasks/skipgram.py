"""Word vectors from skip-gram with negative sampling (chapter 03) on seqmodels.data.word_relations' sentences.

Besides the loss, evaluation reports how many of the corpus's analogy questions (king - man + woman = queen,
paris - france + italy = rome, ...) the centre vectors answer correctly.
"""
import torch

from seqmodels.data.word_relations import analogy_questions, relation_corpus
from seqmodels.embeddings.similarity import analogy
from seqmodels.embeddings.word2vec import noise_distribution, skipgram_pairs
from seqmodels.models.skipgram import SkipGram
from seqmodels.tasks.base import SCALES, Scale, Setup, Task
from seqmodels.text.vocab import build_vocab, encode
from seqmodels.training import make_loader, to_device

WINDOW, NEGATIVES = 2, 5


def build(device: torch.device, hand_written: bool = False, seed: int = 0, scale: Scale = SCALES["cpu"]) -> Setup:
    n = 10000 * scale.data
    sentences = relation_corpus(n=n, seed=seed)
    words = {"train": sentences[: n * 8 // 10], "validation": sentences[n * 8 // 10: n * 9 // 10],
             "test": sentences[n * 9 // 10:]}
    vocab = build_vocab(words["train"])
    counts = torch.zeros(len(vocab))
    for sentence in words["train"]:
        for i in encode(sentence, vocab):
            counts[i] += 1
    noise = noise_distribution(counts)
    pairs = {split: [p for s in sentences for p in skipgram_pairs(encode(s, vocab), WINDOW)]
             for split, sentences in words.items()}
    generator = torch.Generator().manual_seed(seed)

    def collate(batch, generator=generator):
        center, context = torch.tensor(batch).T
        return center, context, torch.multinomial(noise, len(batch) * NEGATIVES, replacement=True,
                                                  generator=generator).view(len(batch), NEGATIVES)

    def step(model, batch):
        return model(*batch), len(batch[0])

    def evaluate(model, split: str = "validation") -> dict[str, float]:
        fixed = torch.Generator().manual_seed(1234)  # the same noise words at every evaluation
        total, count = 0.0, 0
        for batch in make_loader(pairs[split], 1024, lambda b: collate(b, fixed), shuffle=False, device=device):
            total += float(model(*to_device(batch, device))) * len(batch[0])
            count += len(batch[0])
        questions = [q for q in analogy_questions() if all(w in vocab for w in q)]
        E = model.E.weight.detach().float()
        right = sum(analogy(a, b, c, E, vocab) == [d] for a, b, c, d in questions)
        return {f"{split}_loss": total / count, f"{split}_analogy_accuracy": right / max(len(questions), 1)}

    model = SkipGram(len(vocab), 32 * scale.width, hand_written=hand_written)
    return Setup(model, step, make_loader(pairs["train"], 256 * scale.batch, collate, seed=seed, device=device),
                 evaluate)


SKIPGRAM = Task("skipgram", f"skip-gram with {NEGATIVES} negative samples, window {WINDOW} (chapter 03)", build,
                epochs=5)
