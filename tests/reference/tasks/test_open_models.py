"""Chapter 13's closing demo: the byte-level news stream holds the same characters as the chapter's (so bits per
character divide alike), with one end-of-text token per story; the variants have the chapter's parameters
but for what RMSNorm and RoPE remove; each variant's training runs (on a short stream) on every device."""
import math

import pytest
import torch

from seqmodels.tasks.gpt_news import NewsText, news_text
from seqmodels.tasks.open_models import BASELINE, VARIANTS, ByteNewsText, byte_news_text, train_variant, variant_model


@pytest.fixture(scope="module")
def texts():
    text = news_text()
    return text, byte_news_text(len(text.tokenizer.vocab))


def test_the_byte_level_stream_holds_the_same_characters_and_ends_each_story(texts):
    text, byte_text = texts
    assert len(byte_text.tokenizer.vocab) == len(text.tokenizer.vocab)  # the same embedding table
    for split in ("train", "validation", "test"):
        assert byte_text.characters(split) == text.characters(split)
        assert " ".join(byte_text.documents[split]).split() == text.words[split]  # the same words, in order
        ids = byte_text.ids[split].tolist()
        assert ids.count(byte_text.tokenizer.end_of_text) == len(byte_text.documents[split])
        assert ids[-1] == byte_text.tokenizer.end_of_text
    assert byte_text.tokenizer.decode(byte_text.ids["test"].tolist()).split("<|endoftext|>")[:-1] == \
        byte_text.documents["test"]


def test_the_variants_keep_the_parameter_count():
    def count(variant):
        return sum(p.numel() for p in variant_model(variant, 1160).parameters())

    D, layers, positions = 64, 2, 64
    gpt2 = count(BASELINE)
    expected = {"RMSNorm": gpt2 - (2 * layers + 1) * D, "RoPE": gpt2 - positions * D,
                "AdamW, cosine after warm-up": gpt2, "byte-level BPE, end-of-text": gpt2}
    for variant, parameters in expected.items():
        assert count(variant) == parameters, variant
    assert abs(count("SwiGLU") - gpt2) <= layers * 3 * D / 2  # the nearest width: within half a hidden unit a block


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_each_variant_trains_on_a_short_stream(variant, texts, device):
    text, byte_text = texts
    short = NewsText(text.tokenizer, text.words, {"train": text.ids["train"][:2049], "test": text.ids["test"]})
    short_bytes = ByteNewsText(byte_text.tokenizer, byte_text.documents,
                               {"train": byte_text.ids["train"][:2049], "test": byte_text.ids["test"]})
    model, bits = train_variant(variant, short, short_bytes, device, seed=0)
    assert math.isfinite(bits) and 0 < bits < math.log2(len(text.tokenizer.vocab))  # below a uniform guess per token
    assert next(model.parameters()).device.type == torch.device(device).type
