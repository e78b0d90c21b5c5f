"""Date normalisation with attention (chapter 11): the encoder-decoder of seqmodels.models.seq2seq on
seqmodels.data.dates; evaluation decodes greedily and reports exact-match and character accuracy."""
import torch

from seqmodels.data.dates import date_pairs
from seqmodels.models.seq2seq import AttentionSeq2Seq
from seqmodels.tasks.base import Setup, Task
from seqmodels.text.batching import pad_batch
from seqmodels.text.vocab import build_vocab, encode
from seqmodels.training import make_loader, to_device

BOS, EOS = "<s>", "</s>"
TARGET_LENGTH = len("2026-11-23") + 1  # and </s>


def build(device: torch.device, hand_written: bool = False, seed: int = 0) -> Setup:
    data = date_pairs(n=3000, seed=seed)
    target_vocab = build_vocab([target for _, target in data.train], specials=("[PAD]", "[UNK]", BOS, EOS))

    def collate(examples):
        source, source_mask = pad_batch([encode(chars, data.vocab) for chars, _ in examples])
        target_out, target_mask = pad_batch([encode([*target, EOS], target_vocab) for _, target in examples])
        target_in, _ = pad_batch([encode([BOS, *target], target_vocab) for _, target in examples])
        return source, source_mask, target_in, target_out, target_mask

    def step(model, batch):
        return model.loss(*batch), int(batch[-1].sum())

    @torch.no_grad()
    def evaluate(model, split: str = "validation") -> dict[str, float]:
        exact = right = total = 0
        for batch in make_loader(getattr(data, split), 256, collate, shuffle=False):
            source, source_mask, _, target_out, target_mask = to_device(batch, device)
            guesses, _ = model.greedy(source, source_mask, target_vocab[BOS], target_vocab[EOS], TARGET_LENGTH)
            for guess, gold in zip(guesses, target_out.tolist()):
                exact += guess == gold[:TARGET_LENGTH]
                right += sum(g == t for g, t in zip(guess, gold))
                total += TARGET_LENGTH
        count = len(getattr(data, split))
        return {f"{split}_exact_match": exact / count, f"{split}_char_accuracy": right / total}

    model = AttentionSeq2Seq(len(data.vocab), len(target_vocab), hand_written=hand_written)
    return Setup(model, step, make_loader(data.train, 32, collate, seed=seed, device=device), evaluate)


DATES = Task("dates-attention", "BiLSTM encoder, LSTM decoder with additive attention: written dates -> ISO 8601 "
             "(chapter 11); greedy exact match", build, epochs=4)
