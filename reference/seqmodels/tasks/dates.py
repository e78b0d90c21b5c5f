"""Date normalisation with attention (chapter 11) and with a transformer (chapter 12): the encoder-decoders
of seqmodels.models.seq2seq and seqmodels.models.transformer on seqmodels.data.dates; evaluation decodes
greedily and reports exact-match and character accuracy.

``translation`` is the recipe for any character-to-character pairs (the chapters' notebooks use it on
smaller models and data sets); ``build`` and ``build_transformer`` are the ``dates-attention`` and
``dates-transformer`` tasks of the command line, on the same data.
"""
import torch
from torch import nn

from seqmodels.data.dates import date_pairs
from seqmodels.data.splits import Splits
from seqmodels.models.seq2seq import AttentionSeq2Seq
from seqmodels.models.transformer import TransformerSeq2Seq
from seqmodels.tasks.base import SCALES, Scale, Setup, Task
from seqmodels.text.batching import pad_batch
from seqmodels.text.vocab import build_vocab, encode
from seqmodels.training import make_loader, to_device

BOS, EOS = "<s>", "</s>"
TARGET_LENGTH = len("2026-11-23") + 1  # and </s>


def target_vocabulary(data: Splits) -> dict[str, int]:
    """The output symbols of the training targets, after [PAD], [UNK], <s> and </s>."""
    return build_vocab([target for _, target in data.train], specials=("[PAD]", "[UNK]", BOS, EOS))


def collate_pairs(examples, source_vocab: dict[str, int], target_vocab: dict[str, int]):
    """(source, source_mask, target_in = <s> y, target_out = y </s>, target_mask), padded."""
    source, source_mask = pad_batch([encode(chars, source_vocab) for chars, _ in examples])
    target_out, target_mask = pad_batch([encode([*target, EOS], target_vocab) for _, target in examples])
    target_in, _ = pad_batch([encode([BOS, *target], target_vocab) for _, target in examples])
    return source, source_mask, target_in, target_out, target_mask


def translation(data: Splits, target_vocab: dict[str, int], model: nn.Module, device: torch.device, seed: int = 0,
                batch_size: int = 32, max_len: int = TARGET_LENGTH) -> Setup:
    """Train ``model.loss`` with teacher forcing on ``data``; evaluation decodes with ``model.greedy`` (up to
    ``max_len`` tokens) and reports the exact-match rate and the accuracy per output position."""
    def collate(examples):
        return collate_pairs(examples, data.vocab, target_vocab)

    def step(model, batch):
        return model.loss(*batch), batch[-1].sum()

    @torch.no_grad()
    def evaluate(model, split: str = "validation") -> dict[str, float]:
        exact = right = total = 0
        for batch in make_loader(getattr(data, split), 256, collate, shuffle=False, device=device):
            source, source_mask, _, target_out, target_mask = to_device(batch, device)
            guesses, _ = model.greedy(source, source_mask, target_vocab[BOS], target_vocab[EOS], max_len)
            for guess, gold, length in zip(guesses, target_out.tolist(), target_mask.sum(1).tolist()):
                exact += guess == gold[:length]
                right += sum(g == t for g, t in zip(guess, gold[:length]))
                total += length
        count = len(getattr(data, split))
        return {f"{split}_exact_match": exact / count, f"{split}_char_accuracy": right / total}

    return Setup(model, step, make_loader(data.train, batch_size, collate, seed=seed, device=device), evaluate)


def build(device: torch.device, hand_written: bool = False, seed: int = 0, scale: Scale = SCALES["cpu"]) -> Setup:
    data = date_pairs(n=3000 * scale.data, seed=seed)
    target_vocab = target_vocabulary(data)
    width = scale.width
    model = AttentionSeq2Seq(len(data.vocab), len(target_vocab), dim=32 * width, hidden=64 * width,
                             attention=64 * width, hand_written=hand_written)
    return translation(data, target_vocab, model, device, seed=seed, batch_size=32 * scale.batch)


def build_transformer(device: torch.device, hand_written: bool = False, seed: int = 0,
                      scale: Scale = SCALES["cpu"]) -> Setup:
    data = date_pairs(n=3000 * scale.data, seed=seed)
    target_vocab = target_vocabulary(data)
    model = TransformerSeq2Seq(len(data.vocab), len(target_vocab), dim=32 * scale.width, heads=4,
                               feedforward=64 * scale.width, layers=2, hand_written=hand_written)
    return translation(data, target_vocab, model, device, seed=seed, batch_size=32 * scale.batch)


DATES = Task("dates-attention", "BiLSTM encoder, LSTM decoder with additive attention: written dates -> ISO 8601 "
             "(chapter 11); greedy exact match", build, epochs=4)
DATES_TRANSFORMER = Task("dates-transformer", "encoder-decoder transformer, 2 + 2 blocks of 4 heads: written dates -> "
                         "ISO 8601 (chapter 12); greedy exact match", build_transformer, epochs=10)
