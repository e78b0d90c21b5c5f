"""pad_batch against Aziz's padded table and torch's pad_sequence."""
import random

import pytest
import torch
from torch.nn.utils.rnn import pad_sequence

from seqmodels import pad_batch


def test_aziz_padded_table():
    ids, mask = pad_batch([[4, 1, 6, 2, 3], [5, 4], [1, 2, 5]])
    assert torch.equal(ids, torch.tensor([[4, 1, 6, 2, 3], [5, 4, 0, 0, 0], [1, 2, 5, 0, 0]]))
    assert torch.equal(mask, ids.ne(0))
    assert ids.dtype == torch.long and mask.dtype == torch.bool


@pytest.mark.parametrize("seed", range(30))
def test_matches_pad_sequence(seed):
    rng = random.Random(seed)
    seqs = [[rng.randrange(100) for _ in range(rng.randint(1, 9))] for _ in range(rng.randint(1, 8))]
    pad = rng.choice([0, -1, 7])
    ids, mask = pad_batch(seqs, pad_id=pad)
    expected = pad_sequence([torch.tensor(s) for s in seqs], batch_first=True, padding_value=pad)
    assert torch.equal(ids, expected)
    lengths = torch.tensor([len(s) for s in seqs])
    assert torch.equal(mask, torch.arange(ids.shape[1]) < lengths[:, None])


def test_real_tokens_equal_to_the_pad_id_are_still_real():
    ids, mask = pad_batch([[0, 0], [0]], pad_id=0)
    assert mask.tolist() == [[True, True], [True, False]]


def test_an_empty_batch_is_refused_clearly():
    with pytest.raises(ValueError, match="at least one sequence"):
        pad_batch([])
