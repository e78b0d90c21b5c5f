from seqmodels.tasks.base import invalid_transitions


def test_invalid_bio_transitions_are_counted():
    assert invalid_transitions(["B-PER", "I-PER", "O", "B-LOC", "I-LOC", "I-LOC"]) == 0
    assert invalid_transitions(["I-PER", "O", "I-LOC", "B-PER", "I-LOC"]) == 3
