from seqmodels.tasks.ctc_speech import edit_distance


def test_edit_distance_counts_insertions_deletions_and_substitutions():
    assert edit_distance([1, 2, 3], [1, 2, 3]) == 0
    assert edit_distance([1, 2, 3], [1, 3]) == 1
    assert edit_distance([], [4, 5]) == 2
    assert edit_distance([1, 2, 3, 4], [2, 1, 3, 5]) == 3
