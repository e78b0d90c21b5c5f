"""Recognising synthetic speech without alignments (chapter 09): BiLSTM-CTC on seqmodels.data.speech."""
import torch

from seqmodels.data.speech import speech
from seqmodels.models.ctc_recognizer import CTCRecognizer
from seqmodels.tasks.base import SCALES, Scale, Setup, Task
from seqmodels.training import make_loader, to_device

SYMBOLS, FEATURES = 10, 16


def edit_distance(a: list[int], b: list[int]) -> int:
    """Levenshtein distance (insertions, deletions, substitutions)."""
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (x != y))
    return row[-1]


def collate(examples):
    lengths = torch.tensor([len(frames) for frames, _ in examples])
    frames = torch.zeros(len(examples), int(lengths.max()), FEATURES)
    for b, (x, _) in enumerate(examples):
        frames[b, : len(x)] = x
    target_lengths = torch.tensor([len(labels) for _, labels in examples])
    targets = torch.zeros(len(examples), int(target_lengths.max()), dtype=torch.long)
    for b, (_, labels) in enumerate(examples):
        targets[b, : len(labels)] = torch.tensor(labels) + 1  # 0 is the blank
    return frames, lengths, targets, target_lengths


def build(device: torch.device, hand_written: bool = False, seed: int = 0, scale: Scale = SCALES["cpu"]) -> Setup:
    data = speech(n=2000 * scale.data, symbols=SYMBOLS, features=FEATURES, seed=seed)

    def step(model, batch):
        return model.loss(*batch), batch[3].sum()

    def evaluate(model, split: str = "validation") -> dict[str, float]:
        errors = total = 0
        for batch in make_loader(getattr(data, split), 256, collate, shuffle=False, device=device):
            frames, lengths, targets, target_lengths = to_device(batch, device)
            for guess, target, n in zip(model.decode(frames, lengths), targets.tolist(), target_lengths.tolist()):
                errors, total = errors + edit_distance(guess, target[:n]), total + n
        return {f"{split}_label_error_rate": errors / total}

    model = CTCRecognizer(FEATURES, 32 * scale.width, SYMBOLS, hand_written=hand_written)
    return Setup(model, step, make_loader(data.train, 32 * scale.batch, collate, seed=seed, device=device), evaluate)


CTC_SPEECH = Task("ctc-speech", "BiLSTM-CTC recogniser of symbols in synthetic frames of unknown duration "
                  "(chapter 09; metric: label error rate)", build, epochs=20)
