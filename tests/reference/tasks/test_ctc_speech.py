"""Edit distances, one at a time and batched; the best constant transcript against brute force; and the phone
recogniser on eSpeak NG's spoken words, which beats that constant transcript after two epochs."""
import random

import torch

from seqmodels.tasks.ctc_speech import CTC_SPOKEN, best_constant_transcript, collate, edit_distance, edit_distances
from seqmodels.training import Trainer


def test_edit_distance_counts_insertions_deletions_and_substitutions():
    assert edit_distance([1, 2, 3], [1, 2, 3]) == 0
    assert edit_distance([1, 2, 3], [1, 3]) == 1
    assert edit_distance([], [4, 5]) == 2
    assert edit_distance([1, 2, 3, 4], [2, 1, 3, 5]) == 3


def brute_force_edit_distance(a, b) -> int:
    """The fewest edits, by trying every alignment: recursion over the three last moves, no table."""
    if not a or not b:
        return len(a) + len(b)
    return min(brute_force_edit_distance(a[:-1], b) + 1, brute_force_edit_distance(a, b[:-1]) + 1,
               brute_force_edit_distance(a[:-1], b[:-1]) + (a[-1] != b[-1]))


def padded(targets: list[list[int]], fill: int) -> tuple[torch.Tensor, torch.Tensor]:
    lengths = torch.tensor([len(t) for t in targets])
    rows = torch.full((len(targets), int(lengths.max())), fill)
    for k, t in enumerate(targets):
        rows[k, : len(t)] = torch.tensor(t, dtype=torch.long)
    return rows, lengths


def test_batched_edit_distances_agree_with_brute_force_whatever_the_padding():
    rng = random.Random(0)
    targets = [[rng.randrange(4) for _ in range(rng.randrange(7))] for _ in range(40)]
    for a in [[], [2], *targets[:12]]:
        expected = [brute_force_edit_distance(a, b) for b in targets]
        assert [edit_distance(a, b) for b in targets] == expected
        for fill in (0, 3, -1):
            assert edit_distances(a, *padded(targets, fill)).tolist() == expected


def test_the_best_constant_transcript_is_the_brute_force_minimum():
    rng = random.Random(1)
    for _ in range(20):
        transcripts = [[rng.randrange(3) for _ in range(rng.randrange(1, 6))] for _ in range(15)]
        totals = {tuple(c): sum(edit_distance(c, t) for t in transcripts) for c in sorted(map(tuple, transcripts))}
        best = min(totals.values())
        assert best_constant_transcript(transcripts) == list(next(c for c, v in totals.items() if v == best))
    assert best_constant_transcript([[1, 2], [1, 2], [3]]) == [1, 2]


def test_collate_pads_frames_of_any_width_and_shifts_labels_past_the_blank():
    frames, lengths, targets, target_lengths = collate([(torch.ones(3, 24), [0, 5]), (torch.ones(1, 24), [2])])
    assert frames.shape == (2, 3, 24) and frames[1, 1:].abs().sum() == 0
    assert lengths.tolist() == [3, 1] and targets.tolist() == [[1, 6], [3, 0]] and target_lengths.tolist() == [2, 1]


def test_two_epochs_on_spoken_words_beat_the_best_constant_transcript():
    device = torch.device("cpu")
    setup = CTC_SPOKEN.build(device=device, seed=0)
    trainer = Trainer(setup.model, setup.step, lr=CTC_SPOKEN.lr, device=device, progress=False)
    trainer.fit(setup.train, epochs=2)
    with torch.no_grad():
        scores = setup.evaluate(trainer.model.eval(), "test")
    assert 0.85 < scores["test_constant_label_error_rate"] < 0.95, scores  # "r eI n" for every word: 0.89
    assert scores["test_label_error_rate"] < 0.6 * scores["test_constant_label_error_rate"], scores  # about 0.36
