"""temperature_softmax against torch.softmax(logits / T); stable at small T; the limits T -> 0 and T -> inf.
filter_logits against a brute-force cut (sort in Python, keep tokens one by one), the ten-token worked example
of chapter 13; sample_tokens is torch.multinomial on the filtered distribution."""
import math
import random

import pytest
import torch

from seqmodels.layers.sampling import filter_logits, sample_tokens, temperature_softmax


@pytest.mark.parametrize("temperature", [0.01, 0.5, 1.0, 3.0])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_matches_torch_softmax_of_scaled_logits(temperature, dtype, device):
    g = torch.Generator().manual_seed(3)
    logits = (5 * torch.randn(4, 3, 6, generator=g, dtype=dtype)).to(device).requires_grad_()
    ours, theirs = temperature_softmax(logits, temperature), torch.softmax(logits / temperature, dim=-1)
    torch.testing.assert_close(ours, theirs)
    weights = torch.randn(ours.shape, generator=g, dtype=dtype).to(device)
    torch.testing.assert_close(torch.autograd.grad((ours * weights).sum(), logits)[0],
                               torch.autograd.grad((theirs * weights).sum(), logits)[0])


def test_limits_and_stability():
    logits = torch.tensor([2.0, 1.0, 0.0, -1.0])
    greedy = temperature_softmax(torch.tensor([1000.0, 999.0, -1000.0]), 1e-3)
    assert torch.isfinite(greedy).all()
    torch.testing.assert_close(greedy, torch.tensor([1.0, 0.0, 0.0]))
    torch.testing.assert_close(temperature_softmax(logits, 1e6), torch.full((4,), 0.25), atol=1e-5, rtol=0)
    with pytest.raises(ValueError):
        temperature_softmax(logits, 0.0)


def brute_force_filter(logits, temperature, top_k, top_p):
    """One row: probabilities in Python, tokens kept one at a time, ties with the last one kept."""
    exps = [math.exp(z / temperature - max(logits) / temperature) for z in logits]
    p = [e / sum(exps) for e in exps]
    order = sorted(range(len(p)), key=lambda i: -p[i])
    kept = set(range(len(p)))
    if top_k is not None:
        kept = {i for i in kept if p[i] >= p[order[top_k - 1]]}
    p = [p[i] / sum(p[j] for j in kept) if i in kept else 0.0 for i in range(len(p))]
    if top_p is not None:
        mass, last = 0.0, order[0]
        for i in order:
            last = i
            mass += p[i]
            if mass >= top_p:
                break
        kept = {i for i in kept if p[i] >= p[last]}
    total = sum(p[i] for i in kept)
    return [math.log(p[i] / total) if i in kept else -math.inf for i in range(len(p))]


def test_the_ten_token_worked_example():
    p = torch.tensor([[0.30, 0.20, 0.15, 0.10, 0.08, 0.07, 0.05, 0.03, 0.01, 0.01]], dtype=torch.float64)
    # 0.30 + 0.20 + 0.15 = 0.65 < 0.7; with 0.10 the mass reaches 0.75: four tokens, renormalised by 0.75
    out = filter_logits(p.log(), top_p=0.7)
    torch.testing.assert_close(out.exp(), torch.cat([p[:, :4] / 0.75, torch.zeros(1, 6, dtype=torch.float64)], 1))
    assert torch.isinf(out[0, 4:]).all()
    torch.testing.assert_close(filter_logits(p.log(), top_k=2).exp()[0, :2], torch.tensor([0.6, 0.4]).double())
    # tied last tokens stay together: the two 0.01s
    assert (filter_logits(p.log(), top_k=9).exp() > 0).sum() == 10


@pytest.mark.parametrize("seed", range(8))
def test_matches_the_brute_force_cut(seed):
    rng = random.Random(seed)
    V = rng.randint(1, 12)
    logits = [rng.choice([rng.gauss(0, 2), 1.0]) for _ in range(V)]  # some ties
    temperature = rng.choice([0.5, 1.0, 2.0])
    top_k = rng.choice([None, 1, rng.randint(1, V)])
    top_p = rng.choice([None, 0.0, 0.3, 0.9, 1.0])
    ours = filter_logits(torch.tensor([logits], dtype=torch.float64), temperature, top_k, top_p)[0]
    expected = torch.tensor(brute_force_filter(logits, temperature, top_k, top_p), dtype=torch.float64)
    assert torch.equal(torch.isinf(ours), torch.isinf(expected))
    torch.testing.assert_close(ours[~torch.isinf(ours)], expected[~torch.isinf(expected)])


def test_sample_tokens_draws_from_the_filtered_distribution(device):
    logits = torch.randn(4, 30, generator=torch.Generator().manual_seed(0)).to(device)
    ours = sample_tokens(logits, torch.Generator(device).manual_seed(5), 0.8, 10, 0.9)
    expected = torch.multinomial(filter_logits(logits, 0.8, 10, 0.9).exp(), 1,
                                 generator=torch.Generator(device).manual_seed(5))[:, 0]
    assert torch.equal(ours, expected)
    many = sample_tokens(logits[:1].expand(2000, 30), torch.Generator(device).manual_seed(1), top_k=3)
    assert set(many.tolist()) == set(logits[0].topk(3).indices.tolist())
