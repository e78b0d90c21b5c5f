"""Word vectors from skip-gram with negative sampling (chapter 03) on seqmodels.data.char_text's sentences."""
import torch

from seqmodels.data.char_text import char_text
from seqmodels.embeddings.word2vec import noise_distribution, skipgram_pairs
from seqmodels.models.skipgram import SkipGram
from seqmodels.tasks.base import Setup, Task
from seqmodels.text.vocab import build_vocab, encode
from seqmodels.training import make_loader, to_device

WINDOW, NEGATIVES = 2, 5


def build(device: torch.device, hand_written: bool = False, seed: int = 0) -> Setup:
    data = char_text(n=2000, seed=seed)
    words = {split: [text.rstrip(".").split() for _, text in getattr(data, split)]
             for split in ("train", "validation", "test")}
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
        for batch in make_loader(pairs[split], 1024, lambda b: collate(b, fixed), shuffle=False):
            total += float(model(*to_device(batch, device))) * len(batch[0])
            count += len(batch[0])
        return {f"{split}_loss": total / count}

    model = SkipGram(len(vocab), 32, hand_written=hand_written)
    return Setup(model, step, make_loader(pairs["train"], 256, collate, seed=seed, device=device), evaluate)


SKIPGRAM = Task("skipgram", f"skip-gram with {NEGATIVES} negative samples, window {WINDOW} (chapter 03)", build,
                epochs=5)
