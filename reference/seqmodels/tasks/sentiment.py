"""Sentiment (chapters 02, 04 and 07): the averaged-embedding classifier and a Kim-style CNN on
seqmodels.data.sentiment's generated sentences, and a recurrent classifier on real film reviews.

``sentiment-reviews`` trains an LSTM (chapter 05) on seqmodels.data.movie_reviews: the Rotten Tomatoes
snippets and the contrast pairs *A but B* built from them, together, split by film. Its accuracy is the
pairs' (an order-blind model scores 0.5 on them by construction); beside it the task reports the same
model's accuracy on the lone snippets and that of the majority class (*fresh*, the training snippets'
most frequent label) on them. The corpus cannot grow, so ``--scale gpu`` widens the model and keeps the
batches."""
from dataclasses import replace

import torch

from seqmodels.data.movie_reviews import contrast_pairs, review_splits
from seqmodels.data.sentiment import sentiment
from seqmodels.data.splits import Splits
from seqmodels.models.averaged_embedding import AveragedEmbeddingClassifier
from seqmodels.models.cnn_classifier import CNNClassifier
from seqmodels.models.recurrent_classifier import RecurrentClassifier
from seqmodels.tasks.base import SCALES, Scale, Setup, Task, classification
from seqmodels.text.vocab import build_vocab


def builder(model_class):
    def build(device: torch.device, hand_written: bool = False, seed: int = 0, scale: Scale = SCALES["cpu"]) -> Setup:
        data = sentiment(n=4000 * scale.data, seed=seed)
        model = model_class(len(data.vocab), 32 * scale.width, 2, hand_written=hand_written)
        return classification(data, model, device, seed, batch_size=32 * scale.batch)
    return build


def majority_accuracy(train: list, held_out: list) -> float:
    """Accuracy on ``held_out`` of always answering the most frequent label of ``train`` ((tokens, label) lists)."""
    labels = [label for _, label in train]
    majority = max(set(labels), key=labels.count)
    return sum(label == majority for _, label in held_out) / len(held_out)


def build_sentiment_reviews(device: torch.device, hand_written: bool = False, seed: int = 0,
                            scale: Scale = SCALES["cpu"]) -> Setup:
    pairs, snippets = contrast_pairs(seed), review_splits(seed)
    train = pairs.train + snippets.train
    vocab = build_vocab(tokens for tokens, _ in train)
    model = RecurrentClassifier(len(vocab), 32 * scale.width, 64 * scale.width, 2, cell="lstm",
                                hand_written=hand_written)
    setup = classification(Splits(train, pairs.validation, pairs.test, vocab), model, device, seed, batch_size=64)
    on_snippets = classification(Splits(train, snippets.validation, snippets.test, vocab), model, device, seed)

    def evaluate(model, split: str = "validation") -> dict[str, float]:
        return {**setup.evaluate(model, split),
                f"{split}_snippet_accuracy": on_snippets.evaluate(model, split)[f"{split}_accuracy"],
                f"{split}_snippet_majority_accuracy": majority_accuracy(snippets.train, getattr(snippets, split))}

    return replace(setup, evaluate=evaluate)


SENTIMENT = [Task("sentiment", "averaged-embedding classifier on sentences where negation and order decide "
                  "the label (chapter 02)", builder(AveragedEmbeddingClassifier), epochs=10),
             Task("sentiment-cnn", "Kim-style CNN on the same sentences (chapter 07)", builder(CNNClassifier),
                  epochs=10),
             Task("sentiment-reviews", "LSTM on real film reviews and on contrast pairs 'A but B' of them, where "
                  "the order decides (chapter 04, with chapter 05's cell); accuracy on the pairs, on the lone "
                  "reviews and the majority class's", build_sentiment_reviews, epochs=5)]
