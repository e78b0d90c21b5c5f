"""Chapter 13's word-order task: held-out news sentences as written or with their words shuffled."""
from collections import Counter

import torch

from seqmodels.data.news_text import news_char_splits
from seqmodels.models.gpt import GPT, GPTClassifier
from seqmodels.tasks.word_order import (AS_WRITTEN, MIN_WORDS, SHUFFLED, word_order_classification,
                                        word_order_examples, word_order_splits)
from seqmodels.text.bpe import BPETokenizer

CPU = torch.device("cpu")


def test_each_example_is_its_sentence_as_written_or_the_same_words_in_another_order():
    data = news_char_splits()
    for split, stories in (("train", data.validation), ("test", data.test)):
        sentences = iter([s.split() for _, s in stories if len(s.split()) >= MIN_WORDS])
        examples = word_order_splits()[split]
        for words, label in examples:  # the examples follow their sentences' order; the test skips a few
            written = next(s for s in sentences if Counter(s) == Counter(words))
            if label == AS_WRITTEN:
                assert words == written
            else:
                assert label == SHUFFLED and words != written
        assert len(examples) > 0.95 * len(stories)


def test_about_half_are_shuffled_the_same_ones_on_every_run_and_no_test_sentence_is_a_training_one():
    splits = word_order_splits()
    for examples in splits.values():
        assert 0.35 < sum(label == SHUFFLED for _, label in examples) / len(examples) < 0.65
    assert splits == word_order_splits()
    training = {" ".join(sorted(words)) for words, _ in splits["train"]}
    assert not any(" ".join(sorted(words)) in training for words, _ in splits["test"])  # one story is told twice


def test_short_sentences_are_left_out_and_a_shuffle_that_gives_the_sentence_back_is_drawn_again():
    examples = word_order_examples(["a b c", "one two three four"] * 400, seed=0)  # 1 shuffle in 24 is no shuffle
    assert len(examples) == 400
    assert all(words != ["one", "two", "three", "four"] for words, label in examples if label == SHUFFLED)


def test_the_classifier_learns_from_the_first_labels_sentences_cut_by_the_tokenizer():
    splits = word_order_splits()
    tokenizer = BPETokenizer([], {c for words, _ in splits["train"] + splits["test"] for w in words for c in w})
    setup = word_order_classification(tokenizer, GPTClassifier(GPT(len(tokenizer.vocab)), 2), CPU, labels=25)
    assert len(setup.train.dataset) == 25
    for (ids, label), (words, their_label) in zip(setup.train.dataset, splits["train"][:25], strict=True):
        assert label == their_label and tokenizer.decode(ids) == " ".join(words)[:len(tokenizer.decode(ids))]
    ids, mask, labels = next(iter(setup.train))
    assert ids.shape == mask.shape and labels.shape == (ids.shape[0],)
    assert 0.0 <= setup.evaluate(setup.model.eval(), "test")["test_accuracy"] <= 1.0
