"""Chapter 13's task where pretraining pays: is a held-out news sentence as written, or are its words shuffled?

**Why this task.** A language model pretrained on the news has learned which word follows which; a sentence
whose words are shuffled is one it finds improbable. So the feature the task needs is the one pretraining
learned, on text of the same kind: the opposite of the film-review task, where pretraining on the news did not
help.

**The data.** The news sentences of ``news_char_splits`` (split by document), cut at whitespace as the chapter's
tokenizer reads them, those of at least ``MIN_WORDS`` words. The classifier trains on the validation stories'
sentences (the GPT's pretraining read 12 of them: the corpus repeats some stories) and is tested on the test
stories' (none of which the GPT read), less the five of one story that the corpus also has among the validation
stories. Each sentence is kept as written (label 1) or, with probability one half, its words are shuffled until
their order differs (label 0), by a ``random.Random`` seeded per split: the same examples on every run.
``labels`` keeps the first ones of the training sentences. Words are cut by the tokenizer to at most
``context`` tokens.
"""
import random

import torch

from seqmodels.data.news_text import news_char_splits
from seqmodels.models.gpt import GPTClassifier
from seqmodels.tasks.base import Setup
from seqmodels.tasks.gpt_news import CONTEXT, sequence_classification
from seqmodels.text.bpe import BPETokenizer

MIN_WORDS = 4  # a sentence of two or three words has too few orders to tell apart
AS_WRITTEN, SHUFFLED = 1, 0
SPLIT_SEEDS = {"train": 1, "test": 2}


def word_order_examples(sentences: list[str], seed: int) -> list[tuple[list[str], int]]:
    """(words, label) for each sentence of at least ``MIN_WORDS`` words: as written, or shuffled with probability
    one half (a shuffle that gives the sentence back is drawn again)."""
    rng = random.Random(seed)
    examples = []
    for sentence in sentences:
        words = sentence.split()
        if len(words) < MIN_WORDS or len(set(words)) == 1:
            continue
        if rng.random() < 0.5:
            shuffled = words[:]
            while shuffled == words:
                rng.shuffle(shuffled)
            examples.append((shuffled, SHUFFLED))
        else:
            examples.append((words, AS_WRITTEN))
    return examples


def word_order_splits() -> dict[str, list[tuple[list[str], int]]]:
    """"train": the validation stories' sentences, "test": the test stories' whose words are not those of a
    training sentence, as ``word_order_examples``."""
    data = news_char_splits()
    train = word_order_examples([s for _, s in data.validation], SPLIT_SEEDS["train"])
    seen = {_bag(words) for words, _ in train}
    test = word_order_examples([s for _, s in data.test if _bag(s.split()) not in seen], SPLIT_SEEDS["test"])
    return {"train": train, "test": test}


def _bag(words: list[str]) -> tuple[str, ...]:
    return tuple(sorted(words))


def word_order_classification(tokenizer: BPETokenizer, model: GPTClassifier, device: torch.device,
                              labels: int | None = None, seed: int = 0, batch_size: int = 16,
                              context: int = CONTEXT) -> Setup:
    """Train ``model(ids, mask)`` on the first ``labels`` training sentences (all of them if None); accuracy."""
    examples = word_order_splits()
    examples["train"] = examples["train"][:labels]
    splits = {split: [(tokenizer.encode(words)[:context], label) for words, label in part]
              for split, part in examples.items()}
    return sequence_classification(model, splits, device, seed, batch_size)
