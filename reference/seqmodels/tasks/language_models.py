"""Language models (chapters 04 and 07): an LSTM over the characters of real news, and the char-CNN + LSTM
model over the words of seqmodels.data.char_text's generated sentences. Both report perplexity (exp of the
mean NLL per token).

``char-lm`` reads the sentences of the Lee background corpus (seqmodels.data.news_text: 2,078 training
sentences, 285k characters, case kept) and reports, beside its perplexity, the perplexity of the unigram
baseline on the same split: every character predicted by its training frequency (add-one smoothed), which
any model that learns from context must beat. The corpus cannot grow, so ``--scale gpu`` widens the model
and keeps the batches."""
import math

import torch

from seqmodels.data.char_text import char_text
from seqmodels.data.news_text import news_char_splits
from seqmodels.models.char_cnn_lm import CharCNNLM
from seqmodels.models.recurrent_lm import RecurrentLM
from seqmodels.tasks.base import SCALES, Scale, Setup, Task
from seqmodels.text.batching import pad_batch
from seqmodels.text.vocab import build_vocab, encode
from seqmodels.training import make_loader, to_device

BOS, EOS = "<s>", "</s>"
SPECIALS = ("[PAD]", "[UNK]", BOS, EOS)


def unigram_perplexity(train: list[list[str]], held_out: list[list[str]], vocab: dict[str, int]) -> float:
    """Perplexity on ``held_out`` (targets t_1..t_n </s>) of predicting every token by its add-one smoothed
    frequency among the training targets; tokens outside ``vocab`` count as [UNK], as the models see them."""
    targets = [[*encode(s, vocab), vocab[EOS]] for s in train]
    counts = torch.bincount(torch.tensor([i for ids in targets for i in ids]), minlength=len(vocab)).double() + 1
    counts[[vocab["[PAD]"], vocab[BOS]]] = 0  # never a target
    log_p = (counts / counts.sum()).log()
    held_out_ids = torch.tensor([i for s in held_out for i in [*encode(s, vocab), vocab[EOS]]])
    return math.exp(-float(log_p[held_out_ids].mean()))


def _language_model(examples: dict[str, list[list[str]]], vocab: dict[str, int], encode_inputs, model, device,
                    seed: int, batch_size: int = 32, baseline: dict[str, float] | None = None) -> Setup:
    """Train ``model.loss(inputs, targets, mask)`` on token lists: inputs <s> t_1..t_n, targets t_1..t_n </s>
    (targets encoded with ``vocab``, inputs by ``encode_inputs(sequences, length)``). ``baseline`` maps a
    split to a perplexity that evaluation reports beside the model's (``<split>_unigram_perplexity``)."""

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
        scores = {f"{split}_perplexity": math.exp(total / count)}
        if baseline is not None:
            scores[f"{split}_unigram_perplexity"] = baseline[split]
        return scores

    return Setup(model, step, make_loader(examples["train"], batch_size, collate, seed=seed, device=device), evaluate)


def build_char_lm(device: torch.device, hand_written: bool = False, seed: int = 0,
                  scale: Scale = SCALES["cpu"]) -> Setup:
    data = news_char_splits()
    examples = {split: [chars for chars, _ in getattr(data, split)] for split in ("train", "validation", "test")}
    vocab = build_vocab(examples["train"], specials=SPECIALS)
    baseline = {split: unigram_perplexity(examples["train"], examples[split], vocab) for split in examples}

    def encode_inputs(sequences, _length):
        return pad_batch([encode(s, vocab) for s in sequences])[0]

    model = RecurrentLM(len(vocab), 32 * scale.width, 128 * scale.width, cell="lstm", hand_written=hand_written)
    return _language_model(examples, vocab, encode_inputs, model, device, seed, baseline=baseline)


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
    Task("char-lm", "LSTM language model over the characters of real news (chapter 04); perplexity per character, "
         "and the unigram baseline's", build_char_lm, epochs=5, lr=1e-2),
    Task("char-cnn-lm", "char-CNN word vectors + LSTM language model over words (chapter 07, Xiao Eq. 4.87); "
         "perplexity per word", build_char_cnn_lm, epochs=10),
]
