"""Multi-query associative recall's definition, checked by a brute-force look-up on tiny cases."""
import pytest
import torch

from seqmodels.data.associative_recall import FILLER, IGNORE, associative_recall, vocabulary_size


def looked_up(row: list[int], pairs: int, query: int) -> int:
    """The token that follows ``query``'s first appearance among the pairs: a search of every earlier position."""
    return next(row[i + 1] for i in range(2 * pairs) if row[i] == query)


@pytest.mark.parametrize("length, pairs, keys, values, seed", [(3, 1, 1, 1, 0), (9, 3, 3, 2, 1), (12, 2, 8, 8, 2),
                                                               (30, 4, 16, 16, 3)])
def test_every_query_is_answered_by_the_value_that_followed_its_key(length, pairs, keys, values, seed):
    inputs, targets = associative_recall(60, length, pairs, keys, values, seed)
    assert inputs.shape == targets.shape == (60, length)
    for row, target in zip(inputs.tolist(), targets.tolist()):
        context = row[:2 * pairs]
        assert all(1 <= k <= keys for k in context[0::2]) and len(set(context[0::2])) == pairs, row
        assert all(keys < v <= keys + values for v in context[1::2]), row
        queries = [i for i in range(2 * pairs, length) if row[i] != FILLER]
        assert sorted(row[i] for i in queries) == sorted(context[0::2]), f"{row}: every key asked once"
        for i in range(length):
            expected = looked_up(row, pairs, row[i]) if i in queries else IGNORE
            assert target[i] == expected, f"{row}: position {i} expected {expected}, got {target[i]}"
        assert max(row) < vocabulary_size(keys, values)


def test_the_queries_come_in_every_order_and_the_seed_fixes_them():
    inputs, _ = associative_recall(300, 8, 2, 4, 4, seed=7)
    orders = {tuple(t for t in row[4:] if t != FILLER) == tuple(row[0:4:2]) for row in inputs.tolist()}
    assert orders == {True, False}, "the keys should be asked both in the pairs' order and in the other"
    assert torch.equal(inputs, associative_recall(300, 8, 2, 4, 4, seed=7)[0])
    assert not torch.equal(inputs, associative_recall(300, 8, 2, 4, 4, seed=8)[0])


def test_too_many_pairs_is_refused():
    with pytest.raises(ValueError, match="pairs=3, keys=2"):
        associative_recall(1, 20, 3, 2)


def test_positions_without_an_answer_are_the_ones_cross_entropy_ignores():
    assert IGNORE == torch.nn.CrossEntropyLoss().ignore_index
