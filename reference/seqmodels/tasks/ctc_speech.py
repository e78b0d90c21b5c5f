"""Recognising speech without alignments (chapter 09): a BiLSTM-CTC recogniser on the synthetic frames of
seqmodels.data.speech (``ctc-speech``) and on English words spoken by eSpeak NG (``ctc-spoken``,
seqmodels.data.spoken_words). Both report the label error rate of best-path decoding.

``ctc-spoken`` reports, beside it, the label error rate of a recogniser that does not listen: the best
constant transcript, the training transcript with the fewest edit operations to all the training
transcripts, said for every word (``best_constant_transcript``: "r eI n", 0.89 on the test words). Its
corpus cannot grow, so ``--scale gpu`` widens the model (4x) and keeps the batches, as ``char-lm`` does:
larger batches would take fewer steps over the same 2,400 training words."""
import torch

from seqmodels.data.speech import speech
from seqmodels.data.splits import Splits
from seqmodels.data.spoken_words import spoken_words
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


def edit_distances(a: list[int], targets: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    """``edit_distance(a, b)`` to every row ``b`` of ``targets`` ``[N, L]`` (row k padded after ``lengths[k]``) at
    once, ``[N]``. Row i of the table is ``d_i(j) = min(d_{i-1}(j) + 1, d_{i-1}(j-1) + [a_i != b_j], d_i(j-1) + 1)``;
    the last term chains along j, and unrolling it gives ``d_i(j) - j = min over k <= j of (s_k - k)``, where ``s_k``
    is the smaller of the first two terms (``s_0 = i``): a running minimum. Column j reads only ``b_1 .. b_j``, so the
    padding changes nothing."""
    columns = torch.arange(targets.shape[1] + 1)
    row = columns.repeat(len(targets), 1)
    for i, x in enumerate(a, 1):
        start = torch.minimum(row[:, 1:] + 1, row[:, :-1] + (targets != x))
        start = torch.cat([torch.full((len(targets), 1), i), start], 1)
        row = (start - columns).cummin(1).values + columns
    return row[torch.arange(len(targets)), lengths]


def best_constant_transcript(transcripts: list[list[int]]) -> list[int]:
    """Of the distinct ``transcripts``, the one whose edit distances to all of them add up to the least (ties: the
    first in sorted order): what a recogniser that ignores its input should say to every utterance.

    Exact, without computing every total: an alignment of a and b with M matches, S substitutions, D deletions and
    I insertions costs S + D + I >= max(len(a), len(b)) - M, and M is at most the number of symbols a and b share
    (counted with repeats). That bound, summed over the transcripts, is cheap for every candidate; candidates are
    tried from the lowest bound up, until the bound exceeds the best total found."""
    candidates = sorted({tuple(t) for t in transcripts})
    lengths = torch.tensor([len(t) for t in transcripts])
    padded = torch.zeros(len(transcripts), int(lengths.max()), dtype=torch.long)
    for k, t in enumerate(transcripts):
        padded[k, : len(t)] = torch.tensor(t, dtype=torch.long)
    symbols = int(padded.max()) + 1
    counts = torch.stack([torch.bincount(padded[k, :n], minlength=symbols) for k, n in enumerate(lengths.tolist())])
    candidate_counts = torch.stack([torch.bincount(torch.tensor(c, dtype=torch.long), minlength=symbols)
                                    for c in candidates])
    shared = torch.stack([torch.minimum(counts, torch.tensor(v)).sum(0)
                          for v in range(int(candidate_counts.max()) + 1)], 1)  # [symbol, v]: sum_b min(v, count in b)
    bound = (torch.maximum(candidate_counts.sum(1, keepdim=True), lengths).sum(1)
             - shared.gather(1, candidate_counts.T).sum(0)).tolist()
    best, best_total = 0, None
    for k in sorted(range(len(candidates)), key=lambda k: (bound[k], k)):
        if best_total is not None and bound[k] > best_total:
            break
        total = int(edit_distances(list(candidates[k]), padded, lengths).sum())
        if best_total is None or (total, k) < (best_total, best):
            best, best_total = k, total
    return list(candidates[best])


def collate(examples):
    """Frames ``[B, T, F]`` padded with zeros, their lengths, targets ``[B, S]`` (labels + 1: 0 is the blank)
    padded with zeros, and the target lengths."""
    lengths = torch.tensor([len(frames) for frames, _ in examples])
    frames = torch.zeros(len(examples), int(lengths.max()), examples[0][0].shape[1])
    for b, (x, _) in enumerate(examples):
        frames[b, : len(x)] = x
    target_lengths = torch.tensor([len(labels) for _, labels in examples])
    targets = torch.zeros(len(examples), int(target_lengths.max()), dtype=torch.long)
    for b, (_, labels) in enumerate(examples):
        targets[b, : len(labels)] = torch.tensor(labels, dtype=torch.long) + 1  # 0 is the blank
    return frames, lengths, targets, target_lengths


def recognition(data: Splits, model: CTCRecognizer, device: torch.device, seed: int = 0, batch_size: int = 32,
                baseline: list[int] | None = None) -> Setup:
    """Train ``model`` with its CTC loss on (frames, labels) examples; evaluation reports the label error rate of
    its best-path transcriptions (edit distance / true labels) and, given a constant transcript ``baseline``,
    that of saying it for every utterance (``<split>_constant_label_error_rate``)."""
    def step(model, batch):
        return model.loss(*batch), batch[3].sum()

    def evaluate(model, split: str = "validation") -> dict[str, float]:
        errors = total = constant_errors = 0
        for batch in make_loader(getattr(data, split), 256, collate, shuffle=False, device=device):
            frames, lengths, targets, target_lengths = to_device(batch, device)
            for guess, target, n in zip(model.decode(frames, lengths), targets.tolist(), target_lengths.tolist()):
                errors, total = errors + edit_distance(guess, target[:n]), total + n
            if baseline is not None:  # the targets count from 1 (0 is the blank)
                constant_errors += int(edit_distances([label + 1 for label in baseline], *batch[2:]).sum())
        scores = {f"{split}_label_error_rate": errors / total}
        if baseline is not None:
            scores[f"{split}_constant_label_error_rate"] = constant_errors / total
        return scores

    return Setup(model, step, make_loader(data.train, batch_size, collate, seed=seed, device=device), evaluate)


def build(device: torch.device, hand_written: bool = False, seed: int = 0, scale: Scale = SCALES["cpu"]) -> Setup:
    data = speech(n=2000 * scale.data, symbols=SYMBOLS, features=FEATURES, seed=seed)
    model = CTCRecognizer(FEATURES, 32 * scale.width, SYMBOLS, hand_written=hand_written)
    return recognition(data, model, device, seed, batch_size=32 * scale.batch)


def build_spoken(device: torch.device, hand_written: bool = False, seed: int = 0,
                 scale: Scale = SCALES["cpu"]) -> Setup:
    data = spoken_words()
    baseline = best_constant_transcript([labels for _, labels in data.train])
    model = CTCRecognizer(data.train[0][0].shape[1], 128 * scale.width, len(data.vocab), hand_written=hand_written)
    return recognition(data, model, device, seed, baseline=baseline)


CTC_SPEECH = Task("ctc-speech", "BiLSTM-CTC recogniser of symbols in synthetic frames of unknown duration "
                  "(chapter 09; metric: label error rate)", build, epochs=20)
CTC_SPOKEN = Task("ctc-spoken", "BiLSTM-CTC phone recogniser of English words spoken by eSpeak NG, new words in "
                  "new voices (chapter 09); label error rate, and the best constant transcript's", build_spoken,
                  epochs=10, lr=1e-2)
