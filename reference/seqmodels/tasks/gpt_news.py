"""Chapter 13's tasks: a small GPT on the news text, scored in bits per character against chapter 04's
character LSTM on the same held-out sentences, and the pretrained GPT fine-tuned on the film-review snippets.

**The text.** The sentences of ``news_char_splits`` (the Lee corpus, split by document: 80 % train, 10 %
validation, 10 % test), as words: each sentence cut at whitespace, case and punctuation kept. The BPE merges
and the alphabet come from the training words only; a test character outside that alphabet is ``[UNK]``.

**Bits per character.** Both models predict every character of a sentence and one symbol after each word:
the LSTM the spaces and the end of the sentence, the GPT the ``</w>`` that ends each word. So both are
scored on the same Σ_words (len(word) + 1) characters::

    bits per character = Σ over the held-out tokens of −log2 p(token | context) / Σ_words (len(word) + 1)

For the LSTM that is log2 of its perplexity per character (``char-lm``). The GPT reads the held-out stream in
windows of ``context`` tokens that do not overlap; the first tokens of a window have little context (the
LSTM starts every sentence afresh, the GPT may see the sentences before). The stream runs on across
sentences and documents, each sentence's words one after another.

**Fine-tuning.** ``review_classification`` encodes each snippet's whitespace-separated words with the news
tokenizer (at most ``context`` tokens) and trains a ``GPTClassifier`` with cross-entropy; ``fraction`` keeps
the first part of the (seeded, shuffled) training snippets, for training on 10 % of the labels.
``averaged_embeddings_on_reviews`` is chapter 04's baseline on the same labelled snippets.
"""
import math
from dataclasses import dataclass

import torch
from torch.nn import functional as F

from seqmodels.data.movie_reviews import film_splits
from seqmodels.data.news_text import news_char_splits
from seqmodels.data.splits import Splits
from seqmodels.models.averaged_embedding import AveragedEmbeddingClassifier
from seqmodels.models.gpt import GPT, GPTClassifier
from seqmodels.tasks.base import SCALES, Scale, Setup, Task, classification
from seqmodels.text.batching import pad_batch
from seqmodels.text.bpe import BPETokenizer
from seqmodels.text.vocab import build_vocab
from seqmodels.training import Trainer, at_least_float32, make_loader, to_device

MERGES = 1000  # the vocabulary: 2 specials, the training alphabet (with and without </w>) and 1000 merges
CONTEXT = 64


@dataclass
class NewsText:
    tokenizer: BPETokenizer
    words: dict[str, list[str]]  # split -> the split's words, sentence after sentence
    ids: dict[str, torch.Tensor]  # split -> its token stream

    def characters(self, split: str) -> int:
        """Σ (len(word) + 1) over the split's words: what bits per character divides by."""
        return sum(len(word) + 1 for word in self.words[split])


def news_text(merges: int = MERGES) -> NewsText:
    data = news_char_splits()
    words = {split: [w for _, sentence in getattr(data, split) for w in sentence.split()]
             for split in ("train", "validation", "test")}
    return tokenized(BPETokenizer.train(words["train"], merges), words)


def tokenized(tokenizer: BPETokenizer, words: dict[str, list[str]]) -> NewsText:
    """The splits' ``words`` as ``tokenizer``'s streams (a student's ``bpe_encode`` in it, say)."""
    return NewsText(tokenizer, words, {split: torch.tensor(tokenizer.encode(w)) for split, w in words.items()})


def windows(stream: torch.Tensor, context: int) -> list[tuple[torch.Tensor, torch.Tensor]]:
    """(inputs, targets) pairs of ``context`` tokens each that cover ``stream`` once, the last one shorter."""
    return [(stream[i:i + n], stream[i + 1:i + 1 + n])
            for i in range(0, len(stream) - 1, context) for n in [min(context, len(stream) - 1 - i)]]


def _collate(pairs):
    length = min(len(inputs) for inputs, _ in pairs)  # the one short window goes in a batch of its own length
    return (torch.stack([inputs[:length] for inputs, _ in pairs]), torch.stack([t[:length] for _, t in pairs]))


@torch.no_grad()
def bits_per_character(model: GPT, text: NewsText, split: str, device: torch.device, context: int = CONTEXT) -> float:
    model.eval()
    nats = 0.0
    pairs = windows(text.ids[split], context)
    for batch in make_loader(pairs[:-1], 64, _collate, shuffle=False), [_collate(pairs[-1:])]:
        for inputs, targets in batch:
            logits = model(inputs.to(device)).float()
            nats += float(F.cross_entropy(logits.flatten(0, 1), targets.to(device).flatten(), reduction="sum"))
    return nats / math.log(2) / text.characters(split)


def language_model(text: NewsText, model: GPT, device: torch.device, seed: int = 0, batch_size: int = 16,
                   context: int = CONTEXT) -> Setup:
    """Train ``model`` on windows of the training stream (a seeded random offset per epoch is not needed: the
    windows are shuffled); evaluation reports bits per character."""
    def step(model, batch):
        inputs, targets = batch
        return model.loss(inputs, targets), targets.numel()

    def evaluate(model, split: str = "validation") -> dict[str, float]:
        return {f"{split}_bits_per_char": bits_per_character(model, text, split, device, context)}

    full = [pair for pair in windows(text.ids["train"], context) if len(pair[1]) == context]
    return Setup(model, step, make_loader(full, batch_size, _collate, seed=seed, device=device), evaluate)


def review_classification(tokenizer: BPETokenizer, model: GPTClassifier, device: torch.device, fraction: float = 1.0,
                          seed: int = 0, batch_size: int = 32, context: int = CONTEXT) -> Setup:
    """Sentiment of the film-review snippets (split by film) with ``model(ids, mask)``; accuracy."""
    parts = [[(tokenizer.encode(s.text.split())[:context], s.label) for s in part] for part in film_splits(seed)]
    splits = {"train": labelled(parts[0], fraction, seed), "validation": parts[1], "test": parts[2]}
    return sequence_classification(model, splits, device, seed, batch_size)


def sequence_classification(model: GPTClassifier, splits: dict[str, list[tuple[list[int], int]]],
                            device: torch.device, seed: int = 0, batch_size: int = 32) -> Setup:
    """``model(ids, mask)`` trained with cross-entropy on ``splits["train"]``'s (token ids, label) pairs;
    evaluation reports a split's accuracy."""
    def collate(examples):
        ids, mask = pad_batch([ids for ids, _ in examples])
        return ids, mask, torch.tensor([label for _, label in examples])

    def step(model, batch):
        ids, mask, labels = batch
        return F.cross_entropy(at_least_float32(model(ids, mask)), labels), mask.sum()

    @torch.no_grad()
    def evaluate(model, split: str = "validation") -> dict[str, float]:
        correct = total = 0
        for batch in make_loader(splits[split], 256, collate, shuffle=False, device=device):
            ids, mask, labels = to_device(batch, device)
            correct += int((model(ids, mask).argmax(-1) == labels).sum())
            total += len(labels)
        return {f"{split}_accuracy": correct / total}

    return Setup(model, step, make_loader(splits["train"], batch_size, collate, seed=seed, device=device), evaluate)


def labelled(train: list, fraction: float, seed: int = 0) -> list:
    """The first ``fraction`` (at least one) of the training snippets in a seeded random order: the same snippets
    for any list in ``film_splits``' order."""
    order = torch.randperm(len(train), generator=torch.Generator().manual_seed(seed)).tolist()
    return [train[i] for i in order[:max(1, round(fraction * len(order)))]]


def averaged_embeddings_on_reviews(snippets: Splits, device: torch.device, fraction: float = 1.0,
                                   seed: int = 0) -> float:
    """Test accuracy of chapter 04's averaged-embedding classifier as chapter 04 trains it (32 dimensions, rate
    0.01, batches of 64, five epochs, its lower-cased words) on the labelled snippets of ``review_classification``
    with the same ``fraction`` and ``seed`` (``snippets``: ``review_splits(seed)``); its vocabulary is theirs."""
    train = labelled(snippets.train, fraction, seed)
    data = Splits(train, snippets.validation, snippets.test, build_vocab(tokens for tokens, _ in train))
    torch.manual_seed(seed)
    setup = classification(data, AveragedEmbeddingClassifier(len(data.vocab), 32, 2), device, seed, batch_size=64)
    Trainer(setup.model, setup.step, lr=1e-2, device=device, seed=seed).fit(setup.train, 5)
    return setup.evaluate(setup.model.eval(), "test")["test_accuracy"]


def gpt_sizes(scale: Scale) -> dict[str, int]:
    """The CPU scale's GPT (2 blocks of width 64) and, at ``--scale gpu``, 4 times as wide and 3 times as deep."""
    wide = scale.width
    return dict(dim=64 * wide, heads=4 * wide, feedforward=256 * wide, layers=2 if wide == 1 else 6, max_len=CONTEXT)


def scaled_batch(batch_size: int, scale: Scale) -> int:
    """``batch_size`` grown by ``scale.batch / scale.width`` (twice at ``--scale gpu``), not by ``scale.batch``: the
    news and the reviews are fixed corpora that cannot grow as ``scale.data`` asks, and batches 8x as large would
    leave an epoch an eighth of its steps; twice as large, a step does more work and an epoch keeps half of them."""
    return batch_size * scale.batch // max(1, scale.width)


def build_gpt_news(device: torch.device, hand_written: bool = False, seed: int = 0,
                   scale: Scale = SCALES["cpu"]) -> Setup:
    text = news_text()
    model = GPT(len(text.tokenizer.vocab), hand_written=hand_written, **gpt_sizes(scale))
    return language_model(text, model, device, seed, batch_size=scaled_batch(16, scale))


GPT_NEWS = Task("gpt-news", "a small GPT over BPE tokens of real news (chapter 13); bits per character on held-out "
                "documents, comparable with char-lm's log2 perplexity", build_gpt_news, epochs=6, lr=3e-3)
