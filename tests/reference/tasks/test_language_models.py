"""The character language model on real news beats the unigram baseline that the task reports beside it."""
import math

import pytest
import torch

from seqmodels.tasks.language_models import LANGUAGE_MODELS, SPECIALS, unigram_perplexity
from seqmodels.text.vocab import build_vocab
from seqmodels.training import Trainer


def test_unigram_perplexity_is_the_smoothed_frequency_of_each_target():
    train, held_out = [list("aab")], [list("ab"), list("c")]
    vocab = build_vocab(train, specials=SPECIALS)  # [PAD] [UNK] <s> </s> a b
    # training targets a a b </s>, add-one over [UNK] </s> a b: P(a) = 3/8, P(b) = 2/8, P(</s>) = 2/8, P([UNK]) = 1/8
    expected = math.exp(-(math.log(3 / 8) + math.log(2 / 8) + math.log(2 / 8) + math.log(1 / 8) + math.log(2 / 8)) / 5)
    assert unigram_perplexity(train, held_out, vocab) == pytest.approx(expected)


def test_one_epoch_on_real_news_already_beats_the_unigram_baseline():
    char_lm = next(task for task in LANGUAGE_MODELS if task.name == "char-lm")
    device = torch.device("cpu")
    setup = char_lm.build(device=device, seed=0)
    trainer = Trainer(setup.model, setup.step, lr=char_lm.lr, device=device, progress=False)
    trainer.fit(setup.train, epochs=1)
    with torch.no_grad():
        scores = setup.evaluate(trainer.model, "test")
    assert 15 < scores["test_unigram_perplexity"] < 30, scores  # English letters by frequency alone
    assert scores["test_perplexity"] < 0.6 * scores["test_unigram_perplexity"], scores  # about 9 against 22
