"""Chapter 13's closing demo, "What today's open models change": the chapter's small GPT on the news text,
trained with one of the changes that open models since 2023 made at a time, scored in bits per character on
the held-out stories as in ``seqmodels.tasks.gpt_news``.

The variants (``VARIANTS``), each against the chapter's GPT-2-style model (layer norm, GELU network, learned
positions, Adam at a constant rate, the chapter's BPE on whitespace-cut words):

- ``norm="rms"``, ``ffn="swiglu"``, ``positions="rope"``: the model's options (``seqmodels.models.gpt``);
- ``"AdamW, cosine after warm-up"``: ``adamw`` (weight decay 0.1 on the matrices, β2 = 0.95) and
  ``cosine_schedule`` (a tenth of the updates to warm up, then down to a tenth of the peak rate);
- ``"byte-level BPE, end-of-text"``: ``seqmodels.text.byte_bpe`` trained on the training stories to the same
  vocabulary size as the chapter's BPE (so the same embedding table), each story followed by
  ``<|endoftext|>``.

**Equal parameter counts.** The SwiGLU network takes the width that keeps the GELU network's weights
(``swiglu_width``); RMSNorm drops the norms' biases (5 × 64) and RoPE the position table (64 × 64), which
is what those changes are; every other variant has the chapter's parameters exactly.

**Like for like.** Each story of the byte-level stream is its words joined by single spaces, the words of
``news_text``, so the characters are the same; its ``<|endoftext|>`` stands for the "+ 1" of the story's
last word, and bits per character divides by the same Σ_words (len(word) + 1). The first token of a stream
is not predicted by either.
"""
from dataclasses import dataclass

import torch

from seqmodels.data.news_text import news_document_splits, news_sentences
from seqmodels.models.gpt import GPT
from seqmodels.tasks.base import SCALES, Scale
from seqmodels.tasks.gpt_news import NewsText, gpt_sizes, language_model, scaled_batch
from seqmodels.text.byte_bpe import ByteBPETokenizer
from seqmodels.training import Trainer
from seqmodels.training.schedules import cosine_schedule
from seqmodels.training.weight_decay import adamw

BASELINE = "GPT-2 style (the chapter's)"
VARIANTS: dict[str, dict[str, str]] = {
    BASELINE: {},
    "RMSNorm": {"norm": "rms"},
    "SwiGLU": {"ffn": "swiglu"},
    "RoPE": {"positions": "rope"},
    "AdamW, cosine after warm-up": {"optimizer": "adamw"},
    "byte-level BPE, end-of-text": {"tokens": "bytes"},
}
LR = 3e-3  # the chapter's rate; the peak of the cosine schedule
WARMUP_FRACTION = 0.1


@dataclass
class ByteNewsText:
    """The news stories as byte-level BPE ids, each story followed by ``<|endoftext|>``."""

    tokenizer: ByteBPETokenizer
    documents: dict[str, list[str]]  # split -> its stories, words joined by single spaces
    ids: dict[str, torch.Tensor]

    def characters(self, split: str) -> int:
        """Each story's characters and one for its end (the end-of-text token): Σ_words (len(word) + 1)."""
        return sum(len(document) + 1 for document in self.documents[split])


def byte_news_text(vocab_size: int) -> ByteNewsText:
    """Byte-level BPE trained on the training stories to ``vocab_size`` ids (512 byte symbols, with and
    without ``</w>``, the merges and ``<|endoftext|>``)."""
    parts = dict(zip(("train", "validation", "test"), news_document_splits()))
    documents = {split: [" ".join(word for sentence in news_sentences(document) for word in sentence.split())
                         for document in part] for split, part in parts.items()}
    tokenizer = ByteBPETokenizer.train(documents["train"], vocab_size - 2 * 256 - 1)
    return ByteNewsText(tokenizer, documents,
                        {split: torch.tensor(tokenizer.encode_documents(d)) for split, d in documents.items()})


def variant_model(variant: str, vocab_size: int, scale: Scale = SCALES["cpu"]) -> GPT:
    """The chapter's GPT (``gpt_sizes``) with ``variant``'s model options (none for the optimizer and the tokens)."""
    options = {key: value for key, value in VARIANTS[variant].items() if key in ("norm", "ffn", "positions")}
    return GPT(vocab_size, **gpt_sizes(scale), **options)


def train_variant(variant: str, text: NewsText, byte_text: ByteNewsText, device: torch.device | str, seed: int = 0,
                  epochs: int = 1, scale: Scale = SCALES["cpu"], progress: bool = False) -> tuple[GPT, float]:
    """The chapter's GPT with ``VARIANTS[variant]`` trained for ``epochs`` from ``seed`` (initial weights and the
    order of the windows); returns the model and its test bits per character."""
    source = byte_text if VARIANTS[variant].get("tokens") == "bytes" else text
    device = torch.device(device)
    torch.manual_seed(seed)
    model = variant_model(variant, len(source.tokenizer.vocab), scale)
    setup = language_model(source, model, device, seed=seed, batch_size=scaled_batch(16, scale))
    if VARIANTS[variant].get("optimizer") == "adamw":
        updates = epochs * len(setup.train)
        trainer = Trainer(model, setup.step, optimizer=adamw(model, LR), device=device, seed=seed, progress=progress,
                          scheduler=cosine_schedule(max(1, round(WARMUP_FRACTION * updates)), updates))
    else:
        trainer = Trainer(model, setup.step, lr=LR, device=device, seed=seed, progress=progress)
    trainer.fit(setup.train, epochs)
    return model.eval(), setup.evaluate(model, "test")["test_bits_per_char"]
