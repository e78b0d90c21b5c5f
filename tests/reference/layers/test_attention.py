"""additive_attention against a loop over every (row, key) pair with the textbook formula, in float64."""
import pytest
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


def test_scaled_dot_product_matches_pytorch_with_padding_and_causal_masks(device):
    from seqmodels.layers.attention import scaled_dot_product_attention
    g = torch.Generator().manual_seed(2)
    B, L, d, dv = 3, 5, 4, 6
    Q, K, V = (torch.randn(B, L, n, generator=g, dtype=torch.float64, device="cpu").to(device) for n in (d, d, dv))
    lengths = torch.tensor([5, 3, 1], device=device)
    padding = torch.arange(L, device=device) < lengths[:, None]
    for causal in (False, True):
        out, weights = scaled_dot_product_attention(Q, K, V, padding, causal=causal)
        allowed = padding[:, None, :] & (torch.ones(L, L, dtype=torch.bool, device=device).tril() if causal else True)
        expected = torch.nn.functional.scaled_dot_product_attention(Q, K, V, attn_mask=allowed)
        torch.testing.assert_close(out, expected)
        assert (weights[~allowed.expand(B, L, L)] == 0).all()
        torch.testing.assert_close(weights.sum(-1), torch.ones(B, L, dtype=torch.float64, device=device))


def test_scaled_dot_product_query_that_sees_no_key_gets_zeros():
    from seqmodels.layers.attention import scaled_dot_product_attention
    Q, K, V = torch.randn(1, 2, 3), torch.randn(1, 2, 3), torch.randn(1, 2, 3, requires_grad=True)
    mask = torch.tensor([[[True, False], [False, False]]])
    out, weights = scaled_dot_product_attention(Q, K, V, mask)
    assert torch.equal(weights[0, 1], torch.zeros(2)) and torch.equal(out[0, 1], torch.zeros(3))
    out.sum().backward()
    assert torch.isfinite(V.grad).all()


def test_multi_head_attention_matches_nn_multihead_attention(device):
    from seqmodels.layers.attention import multi_head_attention
    torch.manual_seed(3)
    B, L, D, H = 2, 6, 8, 4
    mha = torch.nn.MultiheadAttention(D, H, bias=False, batch_first=True).double().to(device)
    x = torch.randn(B, L, D, dtype=torch.float64, device=device)
    W_q, W_k, W_v = mha.in_proj_weight.chunk(3)
    for causal in (False, True):
        blocked = torch.ones(L, L, dtype=torch.bool, device=device).triu(1) if causal else None  # True = not allowed
        expected, _ = mha(x, x, x, attn_mask=blocked, need_weights=False)
        out = multi_head_attention(x, W_q, W_k, W_v, mha.out_proj.weight, H, causal=causal)
        torch.testing.assert_close(out, expected)


def test_attention_heads_matches_nn_multihead_attention_for_cross_attention_with_padding(device):
    from seqmodels.layers.attention import attention_heads
    torch.manual_seed(4)
    B, Lq, Lk, D, H = 3, 4, 6, 8, 4
    mha = torch.nn.MultiheadAttention(D, H, batch_first=True).double().to(device)
    with torch.no_grad():  # PyTorch starts the biases at 0: make them count
        mha.in_proj_bias.normal_()
        mha.out_proj.bias.normal_()
    q = torch.randn(B, Lq, D, dtype=torch.float64, device=device, requires_grad=True)
    k, v = (torch.randn(B, Lk, D, dtype=torch.float64, device=device, requires_grad=True) for _ in range(2))
    key_mask = torch.arange(Lk, device=device) < torch.tensor([6, 3, 1], device=device)[:, None]
    weights = (mha.in_proj_weight, mha.in_proj_bias, mha.out_proj.weight, mha.out_proj.bias)
    for causal in (False, True):
        blocked = torch.ones(Lq, Lk, dtype=torch.bool, device=device).triu(1) if causal else None
        expected, _ = mha(q, k, v, key_padding_mask=~key_mask, attn_mask=blocked, need_weights=False)
        out = attention_heads(q, k, v, *weights, H, key_mask=key_mask, causal=causal)
        torch.testing.assert_close(out, expected)
        inputs = [q, k, v, *weights]
        torch.testing.assert_close(torch.autograd.grad(out.square().sum(), inputs),
                                   torch.autograd.grad(expected.square().sum(), inputs))


def test_attention_heads_padded_keys_and_values_never_reach_the_output():
    from seqmodels.layers.attention import attention_heads
    g = torch.Generator().manual_seed(5)
    q, k, v = torch.randn(1, 2, 4, generator=g), torch.randn(1, 3, 4, generator=g), torch.randn(1, 3, 4, generator=g)
    weights = (torch.randn(12, 4, generator=g), torch.randn(12, generator=g), torch.randn(4, 4, generator=g), None)
    key_mask = torch.tensor([[True, True, False]])
    poisoned_k, poisoned_v = k.clone(), v.clone()
    poisoned_k[0, 2], poisoned_v[0, 2] = 1e4, -1e4
    torch.testing.assert_close(attention_heads(q, poisoned_k, poisoned_v, *weights, 2, key_mask=key_mask),
                               attention_heads(q, k, v, *weights, 2, key_mask=key_mask))


def test_scaled_dot_product_refuses_a_2d_mask_that_could_be_key_padding_or_one_mask_per_query():
    # B = Lq = 3: an [Lq, Lk] causal-like mask has the shape of [B, Lk] key padding; reading it as either is a guess
    from seqmodels.layers.attention import scaled_dot_product_attention
    Q, K, V = torch.randn(3, 3, 4), torch.randn(3, 5, 4), torch.randn(3, 5, 2)
    per_query = torch.ones(3, 5, dtype=torch.bool).tril()
    with pytest.raises(ValueError, match=r"ambiguous when B = Lq = 3.*mask\[:, None, :\]"):
        scaled_dot_product_attention(Q, K, V, per_query)
    with pytest.raises(ValueError, match=r"key padding \[B, Lk\] = \[2, 5\], got \[3, 5\]"):  # [Lq, Lk] with B != Lq
        scaled_dot_product_attention(Q[:2], K[:2], V[:2], per_query)
    with pytest.raises(ValueError, match=r"\[B, Lq, Lk\] = \[3, 3, 5\].*got \[3, 4, 5\]"):
        scaled_dot_product_attention(Q, K, V, torch.ones(3, 4, 5, dtype=torch.bool))


def test_scaled_dot_product_reads_each_unambiguous_mask_when_b_equals_lq(device):
    # the two meanings of the refused mask, each said without ambiguity, against PyTorch's fused attention in float64
    from seqmodels.layers.attention import scaled_dot_product_attention
    g = torch.Generator().manual_seed(6)
    Q, K, V = (torch.randn(3, n, m, generator=g, dtype=torch.float64).to(device) for n, m in ((3, 4), (5, 4), (5, 2)))
    padding = (torch.arange(5) < torch.tensor([[5], [2], [4]])).to(device)
    per_query = torch.ones(3, 5, dtype=torch.bool, device=device).tril()
    for mask, allowed in ((padding[:, None, :], padding[:, None, :].expand(3, 3, 5)),
                          (per_query[None], per_query.expand(3, 3, 5))):
        out, weights = scaled_dot_product_attention(Q, K, V, mask)
        torch.testing.assert_close(out, torch.nn.functional.scaled_dot_product_attention(Q, K, V, attn_mask=allowed))
        assert (weights[~allowed] == 0).all()


def test_attention_heads_key_padding_when_batch_times_heads_equals_the_queries(device):
    # B·H = Lq = 4: the heads' key padding [B·H, Lk] must not be taken for one mask per query
    from seqmodels.layers.attention import attention_heads
    torch.manual_seed(7)
    B, Lq, Lk, D, H = 2, 4, 5, 8, 2
    mha = torch.nn.MultiheadAttention(D, H, batch_first=True).double().to(device)
    q, k, v = (torch.randn(B, n, D, dtype=torch.float64, device=device) for n in (Lq, Lk, Lk))
    key_mask = torch.arange(Lk, device=device) < torch.tensor([5, 2], device=device)[:, None]
    expected, _ = mha(q, k, v, key_padding_mask=~key_mask, need_weights=False)
    out = attention_heads(q, k, v, mha.in_proj_weight, mha.in_proj_bias, mha.out_proj.weight, mha.out_proj.bias, H,
                          key_mask=key_mask)
    torch.testing.assert_close(out, expected)
