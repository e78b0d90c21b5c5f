"""Sentiment by averaging word vectors (chapter 02): the averaged-embedding classifier on seqmodels.data.sentiment."""
import torch

from seqmodels.data.sentiment import sentiment
from seqmodels.models.averaged_embedding import AveragedEmbeddingClassifier
from seqmodels.models.cnn_classifier import CNNClassifier
from seqmodels.tasks.base import SCALES, Scale, Setup, Task, classification


def builder(model_class):
    def build(device: torch.device, hand_written: bool = False, seed: int = 0, scale: Scale = SCALES["cpu"]) -> Setup:
        data = sentiment(n=4000 * scale.data, seed=seed)
        model = model_class(len(data.vocab), 32 * scale.width, 2, hand_written=hand_written)
        return classification(data, model, device, seed, batch_size=32 * scale.batch)
    return build


SENTIMENT = [Task("sentiment", "averaged-embedding classifier on sentences where negation and order decide "
                  "the label (chapter 02)", builder(AveragedEmbeddingClassifier), epochs=10),
             Task("sentiment-cnn", "Kim-style CNN on the same sentences (chapter 07)", builder(CNNClassifier),
                  epochs=10)]
