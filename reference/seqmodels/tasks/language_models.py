"""Language models on seqmodels.data.char_text (chapters 04 and 07): an LSTM over characters, and the
char-CNN + LSTM model over words. Both report validation perplexity (exp of the mean NLL per token)."""
import math

import torch

from seqmodels.data.char_text import char_text
from seqmodels.models.char_cnn_lm import CharCNNLM
from seqmodels.models.recurrent_lm import RecurrentLM
from seqmodels.tasks.base import SCALES, Scale, Setup, Task
from seqmodels.text.batching import pad_batch
from seqmodels.text.vocab import build_vocab, encode
from seqmodels.training import make_loader, to_device

BOS, EOS = "<s>", "</s>"
SPECIALS = ("[PAD]", "[UNK]", BOS, EOS)


def _language_model(examples: dict[str, list[list[str]]], vocab: dict[str, int], encode_inputs, model, device,
                    seed: int, batch_size: int = 32) -> Setup:
    """Train ``model.loss(inputs, targets, mask)`` on token lists: inputs <s> t_1..t_n, targets t_1..t_n </s>
    (targets encoded with ``vocab``, inputs by ``encode_inputs(sequences, length)``)."""

    def collate(sequences):
        targets, mask = pad_batch([encode([*s, EOS], vocab) for s in sequences])
        return encode_inputs([[BOS, *s] for s in sequences], targets.shape[1]), targets, mask

    def step(model, batch):
        inputs, targets, mask = batch
        return model.loss(inputs, targets, mask), mask.sum()

    @torch.no_grad()
    def evaluate(model, split: str = "validation") -> dict[str, float]:
        total = count = 0.0
        for batch in make_loader(examples[split], 256, collate, shuffle=False, device=device):
            inputs, targets, mask = to_device(batch, device)
            tokens = int(mask.sum())
            total, count = total + model.loss(inputs, targets, mask).item() * tokens, count + tokens
        return {f"{split}_perplexity": math.exp(total / count)}

    return Setup(model, step, make_loader(examples["train"], batch_size, collate, seed=seed, device=device), evaluate)


def build_char_lm(device: torch.device, hand_written: bool = False, seed: int = 0,
                  scale: Scale = SCALES["cpu"]) -> Setup:
    data = char_text(n=1500 * scale.data, seed=seed)
    examples = {split: [chars for chars, _ in getattr(data, split)] for split in ("train", "validation", "test")}
    vocab = build_vocab(examples["train"], specials=SPECIALS)

    def encode_inputs(sequences, _length):
        return pad_batch([encode(s, vocab) for s in sequences])[0]

    model = RecurrentLM(len(vocab), 24 * scale.width, 96 * scale.width, cell="lstm", hand_written=hand_written)
    return _language_model(examples, vocab, encode_inputs, model, device, seed, batch_size=32 * scale.batch)


def build_char_cnn_lm(device: torch.device, hand_written: bool = False, seed: int = 0,
                      scale: Scale = SCALES["cpu"]) -> Setup:
    data = char_text(n=1500 * scale.data, seed=seed)
    examples = {split: [text.replace(".", " .").split() for _, text in getattr(data, split)]
                for split in ("train", "validation", "test")}
    chars = build_vocab([list(word) for words in examples["train"] for word in [BOS, *words]])

    def encode_inputs(sequences, length):
        """Every word as its characters: [B, L, longest word] (0 = [PAD]; unknown characters -> [UNK])."""
        longest = max(len(word) for words in sequences for word in words)
        ids = torch.zeros(len(sequences), length, longest, dtype=torch.long)
        for b, words in enumerate(sequences):
            for i, word in enumerate(words):
                ids[b, i, : len(word)] = torch.tensor(encode(list(word), chars))
        return ids

    words = build_vocab(examples["train"], specials=SPECIALS)
    model = CharCNNLM(len(chars), len(words), filters=32 * scale.width, hidden=64 * scale.width,
                      hand_written=hand_written)
    return _language_model(examples, words, encode_inputs, model, device, seed, batch_size=32 * scale.batch)


LANGUAGE_MODELS = [
    Task("char-lm", "LSTM language model over characters (chapter 04); perplexity per character", build_char_lm,
         epochs=4),
    Task("char-cnn-lm", "char-CNN word vectors + LSTM language model over words (chapter 07, Xiao Eq. 4.87); "
         "perplexity per word", build_char_cnn_lm, epochs=10),
]
