"""Sentiment by averaging word vectors (chapter 02): the averaged-embedding classifier on seqmodels.data.sentiment."""
import torch
from torch.nn import functional as F

from seqmodels.data.sentiment import sentiment
from seqmodels.models.averaged_embedding import AveragedEmbeddingClassifier
from seqmodels.tasks.base import Setup, Task, batches
from seqmodels.text.batching import pad_batch
from seqmodels.text.vocab import encode
from seqmodels.training import make_loader


def build(device: torch.device, hand_written: bool = False, seed: int = 0) -> Setup:
    data = sentiment(n=4000, seed=seed)

    def collate(examples):
        ids, mask = pad_batch([encode(tokens, data.vocab) for tokens, _ in examples])
        return ids, mask, torch.tensor([label for _, label in examples])

    def step(model, batch):
        ids, mask, labels = batch
        return F.cross_entropy(model(ids, mask).float(), labels), int(mask.sum())

    def evaluate(model, split: str = "validation") -> dict[str, float]:
        loader = make_loader(getattr(data, split), 256, collate, shuffle=False)
        correct = total = 0
        for ids, mask, labels in batches(loader, device):
            correct += int((model(ids, mask).argmax(-1) == labels).sum())
            total += len(labels)
        return {f"{split}_accuracy": correct / total}

    model = AveragedEmbeddingClassifier(len(data.vocab), 32, 2, hand_written=hand_written)
    return Setup(model, step, make_loader(data.train, 32, collate, seed=seed, device=device), evaluate)


SENTIMENT = Task("sentiment", "averaged-embedding classifier on sentences where negation and order decide "
                 "the label (chapter 02)", build, epochs=10)
