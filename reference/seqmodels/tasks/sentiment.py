"""Sentiment by averaging word vectors (chapter 02): the averaged-embedding classifier on seqmodels.data.sentiment."""
import torch

from seqmodels.data.sentiment import sentiment
from seqmodels.models.averaged_embedding import AveragedEmbeddingClassifier
from seqmodels.tasks.base import Setup, Task, classification


def build(device: torch.device, hand_written: bool = False, seed: int = 0) -> Setup:
    data = sentiment(n=4000, seed=seed)
    model = AveragedEmbeddingClassifier(len(data.vocab), 32, 2, hand_written=hand_written)
    return classification(data, model, device, seed)


SENTIMENT = Task("sentiment", "averaged-embedding classifier on sentences where negation and order decide "
                 "the label (chapter 02)", build, epochs=10)
