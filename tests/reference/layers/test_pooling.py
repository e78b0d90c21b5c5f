"""Pooling against a brute-force loop over each row's real tokens, in float64 and with gradients."""
import pytest
import torch

from seqmodels.layers.pooling import max_pool, mean_pool, sum_pool
from seqmodels.text.batching import pad_batch


def brute_force(x, lengths, reduce):
    return torch.stack([reduce(x[b, :n]) for b, n in enumerate(lengths)])


@pytest.mark.parametrize("pool, reduce", [(sum_pool, lambda r: r.sum(0)), (mean_pool, lambda r: r.mean(0)),
                                          (max_pool, lambda r: r.max(0).values)])
def test_pooling_ignores_padding(pool, reduce):
    g = torch.Generator().manual_seed(0)
    for trial in range(20):
        lengths = torch.randint(1, 7, (int(torch.randint(1, 5, (1,), generator=g)),), generator=g).tolist()
        _, mask = pad_batch([[1] * n for n in lengths])
        x = torch.randn(len(lengths), max(lengths), 3, dtype=torch.float64, generator=g)
        x = x.masked_fill(~mask.unsqueeze(-1), 1e6)  # padding that would show if it were used
        torch.testing.assert_close(pool(x, mask), brute_force(x, lengths, reduce))


def test_mean_pool_gradients_reach_only_real_tokens():
    x = torch.randn(2, 3, 4, requires_grad=True)
    mask = torch.tensor([[True, True, False], [True, False, False]])
    mean_pool(x, mask).sum().backward()
    torch.testing.assert_close(x.grad, (mask / mask.sum(1, keepdim=True)).unsqueeze(-1).expand(2, 3, 4))


def test_bad_shapes_and_empty_rows_are_refused_with_a_message():
    with pytest.raises(ValueError, match=r"x \[B, L, D\]"):
        sum_pool(torch.zeros(2, 3), torch.ones(2, 3, dtype=torch.bool))
    with pytest.raises(ValueError, match="at least one real token"):
        mean_pool(torch.zeros(2, 3, 4), torch.tensor([[True, False, False], [False, False, False]]))
