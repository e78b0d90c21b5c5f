"""additive_attention against a loop over every (row, key) pair with the textbook formula, in float64."""
import torch

from seqmodels.layers.attention import additive_attention


def brute_force(query, keys, mask, W_q, W_k, v):
    contexts, all_weights = [], []
    for b in range(keys.shape[0]):
        real = [j for j in range(keys.shape[1]) if mask[b, j]]
        scores = torch.stack([v @ torch.tanh(W_q @ query[b] + W_k @ keys[b, j]) for j in real])
        alpha = torch.exp(scores) / torch.exp(scores).sum()
        weights = torch.zeros(keys.shape[1], dtype=keys.dtype)
        weights[real] = alpha
        contexts.append(sum(a * keys[b, j] for a, j in zip(alpha, real)))
        all_weights.append(weights)
    return torch.stack(contexts), torch.stack(all_weights)


def test_matches_the_formula_and_ignores_padding(device):
    g = torch.Generator().manual_seed(0)
    B, L, Hd, He, A = 3, 5, 4, 6, 7
    args = [torch.randn(B, Hd, generator=g), torch.randn(B, L, He, generator=g)]
    mask = torch.tensor([[1, 1, 1, 1, 1], [1, 1, 0, 0, 0], [1, 0, 0, 0, 0]], dtype=torch.bool)
    params = [torch.randn(A, Hd, generator=g), torch.randn(A, He, generator=g), torch.randn(A, generator=g)]
    args, params = [t.double() for t in args], [t.double() for t in params]
    expected = brute_force(args[0], args[1], mask, *params)
    context, weights = additive_attention(*(t.to(device) for t in (*args, mask, *params)))
    torch.testing.assert_close(context.cpu(), expected[0])
    torch.testing.assert_close(weights.cpu(), expected[1])
    assert (weights[mask.to(device).logical_not()] == 0).all()


def test_padding_values_never_reach_the_context():
    g = torch.Generator().manual_seed(1)
    query, keys = torch.randn(1, 2, generator=g), torch.randn(1, 3, 2, generator=g)
    mask = torch.tensor([[True, True, False]])
    params = (torch.randn(4, 2, generator=g), torch.randn(4, 2, generator=g), torch.randn(4, generator=g))
    poisoned = keys.clone()
    poisoned[0, 2] = 1e6
    torch.testing.assert_close(additive_attention(query, poisoned, mask, *params)[0],
                               additive_attention(query, keys, mask, *params)[0])


def test_several_queries_per_row_are_each_attended_as_one_query():
    g = torch.Generator().manual_seed(2)
    queries, keys = torch.randn(2, 4, 3, generator=g), torch.randn(2, 5, 6, generator=g)
    mask = torch.tensor([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]], dtype=torch.bool)
    params = (torch.randn(7, 3, generator=g), torch.randn(7, 6, generator=g), torch.randn(7, generator=g))
    context, weights = additive_attention(queries, keys, mask, *params)
    for t in range(4):
        one_context, one_weights = additive_attention(queries[:, t], keys, mask, *params)
        torch.testing.assert_close(context[:, t], one_context)
        torch.testing.assert_close(weights[:, t], one_weights)
