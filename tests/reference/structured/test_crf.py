"""CRF scoring, partition, NLL and Viterbi against brute-force enumeration of every tag sequence; the fast paths
(the log-depth scan for log Z, the fused Viterbi) against brute force and the readable loops."""
import itertools

import pytest
import torch

from seqmodels.structured.crf import (crf_log_partition, crf_nll, crf_score, crf_viterbi, crf_viterbi_batch,
                                      crf_viterbi_fused, hmm_viterbi)
from seqmodels.structured.crf_scan import crf_log_partition_scan


def random_crf(T, K, seed=0):
    g = torch.Generator().manual_seed(seed)
    return [torch.randn(*shape, dtype=torch.float64, generator=g) for shape in ((T, K), (K, K), (K,), (K,))]


def all_scores(emissions, transitions, start, end):
    T, K = emissions.shape
    return {tags: crf_score(emissions, list(tags), transitions, start, end).item()
            for tags in itertools.product(range(K), repeat=T)}


def test_score_follows_eq_4_85():
    emissions, transitions, start, end = random_crf(3, 2)
    expected = start[1] + emissions[0, 1] + transitions[1, 0] + emissions[1, 0] + transitions[0, 0] + emissions[2, 0] + end[0]
    torch.testing.assert_close(crf_score(emissions, [1, 0, 0], transitions, start, end), expected)


def test_partition_and_viterbi_equal_brute_force():
    emissions, transitions, start, end = random_crf(4, 3, seed=1)
    scores = all_scores(emissions, transitions, start, end)
    log_z = crf_log_partition(emissions[None], torch.ones(1, 4, dtype=torch.bool), transitions, start, end)
    assert log_z.item() == pytest.approx(torch.logsumexp(torch.tensor(list(scores.values()), dtype=torch.float64), 0).item(), rel=1e-12)
    path, score = crf_viterbi(emissions, transitions, start, end)
    assert tuple(path) == max(scores, key=scores.get) and score == pytest.approx(max(scores.values()))


def test_padding_is_ignored_in_the_batch():
    long, transitions, start, end = random_crf(5, 3, seed=2)
    short = long[:3]
    emissions = torch.stack([long, torch.cat([short, torch.randn(2, 3, dtype=torch.float64)])])
    mask = torch.tensor([[True] * 5, [True] * 3 + [False] * 2])
    log_z = crf_log_partition(emissions, mask, transitions, start, end)
    alone = crf_log_partition(short[None], torch.ones(1, 3, dtype=torch.bool), transitions, start, end)
    torch.testing.assert_close(log_z[1], alone[0])
    tags = torch.tensor([[0, 1, 2, 1, 0], [2, 2, 1, 0, 0]])
    expected = ((log_z[0] - crf_score(long, tags[0], transitions, start, end))
                + (alone[0] - crf_score(short, tags[1, :3], transitions, start, end))) / 2
    torch.testing.assert_close(crf_nll(emissions, tags, mask, transitions, start, end), expected)


def test_the_forward_algorithm_is_polynomial():
    emissions, transitions, start, end = random_crf(60, 10, seed=3)
    log_z = crf_log_partition(emissions[None], torch.ones(1, 60, dtype=torch.bool), transitions, start, end)
    assert torch.isfinite(log_z).all()


def test_nll_gradients_are_expected_minus_observed_counts():
    emissions, transitions, start, end = random_crf(3, 2, seed=4)
    emissions.requires_grad_(True)
    crf_nll(emissions[None], torch.tensor([[0, 1, 1]]), torch.ones(1, 3, dtype=torch.bool), transitions, start,
            end).backward()
    scores = all_scores(emissions.detach(), transitions, start, end)
    z = torch.logsumexp(torch.tensor(list(scores.values()), dtype=torch.float64), 0)
    marginals = torch.zeros(3, 2, dtype=torch.float64)
    for tags, s in scores.items():
        for i, t in enumerate(tags):
            marginals[i, t] += torch.exp(torch.tensor(s) - z)
    observed = torch.tensor([[1.0, 0], [0, 1], [0, 1]], dtype=torch.float64)
    torch.testing.assert_close(emissions.grad, marginals - observed)


def test_hmm_viterbi_maximises_the_joint_probability():
    g = torch.Generator().manual_seed(5)
    log_init = torch.randn(3, generator=g).log_softmax(0)
    log_trans = torch.randn(3, 3, generator=g).log_softmax(1)
    log_emit = torch.randn(4, 3, generator=g)
    best = max(itertools.product(range(3), repeat=4), key=lambda p: log_init[p[0]] + sum(
        log_trans[a, b] for a, b in zip(p, p[1:])) + sum(log_emit[i, s] for i, s in enumerate(p)))
    path, _ = hmm_viterbi(log_init, log_trans, log_emit)
    assert tuple(path) == best


def test_batched_viterbi_gives_every_row_its_own_best_path(device):
    g = torch.Generator().manual_seed(7)
    B, T, K = 6, 9, 4
    emissions = torch.randn(B, T, K, generator=g).to(device)
    transitions, start, end = (torch.randn(*s, generator=g).to(device) for s in ((K, K), (K,), (K,)))
    lengths = [9, 1, 5, 9, 2, 7]
    mask = (torch.arange(T) < torch.tensor(lengths).unsqueeze(1)).to(device)
    paths, scores = crf_viterbi_batch(emissions, mask, transitions, start, end)
    one_by_one = [crf_viterbi(emissions[b, :n], transitions, start, end) for b, n in enumerate(lengths)]
    assert paths == [path for path, _ in one_by_one]
    assert scores == pytest.approx([score for _, score in one_by_one])


def test_length_one_and_float64():
    emissions, transitions, start, end = random_crf(1, 4, seed=8)
    best = int((start + emissions[0] + end).argmax())
    assert crf_score(emissions, [best], transitions, start, end).dtype == torch.float64
    path, score = crf_viterbi(emissions, transitions, start, end)
    assert path == [best] and score == pytest.approx((start + emissions[0] + end).max().item())
    log_z = crf_log_partition(emissions[None], torch.ones(1, 1, dtype=torch.bool), transitions, start, end)
    torch.testing.assert_close(log_z, torch.logsumexp(start + emissions[0] + end, 0)[None])
    assert hmm_viterbi(start, transitions, emissions)[0] == [int((start + emissions[0]).argmax())]


def test_hmm_viterbi_never_takes_an_impossible_transition():
    must_alternate = torch.tensor([[0.0, 1.0], [1.0, 0.0]]).log()
    path, log_prob = hmm_viterbi(torch.tensor([0.5, 0.5]).log(), must_alternate, torch.tensor([[0.1, 0.9]] * 3).log())
    assert path == [1, 0, 1] and log_prob == pytest.approx(torch.tensor(0.5 * 0.9 * 0.1 * 0.9).log().item())


def test_agrees_with_pytorch_crf_at_length_60():
    """pytorch-crf (a benchmark-only dependency, skipped when missing) as an independent oracle, with padding."""
    torchcrf = pytest.importorskip("torchcrf")
    g = torch.Generator().manual_seed(9)
    B, T, K = 3, 60, 10
    emissions = torch.randn(B, T, K, dtype=torch.float64, generator=g)
    tags = torch.randint(K, (B, T), generator=g)
    mask = torch.arange(T) < torch.tensor([[60], [33], [1]])
    tags = tags * mask
    oracle = torchcrf.CRF(K, batch_first=True).double()
    for parameter in oracle.parameters():
        torch.nn.init.normal_(parameter, generator=g)
    args = (oracle.transitions, oracle.start_transitions, oracle.end_transitions)
    expected = -oracle(emissions, tags, mask, reduction="mean")
    torch.testing.assert_close(crf_nll(emissions, tags, mask, *args), expected)
    paths = oracle.decode(emissions, mask)
    assert [crf_viterbi(emissions[b, :n], *args)[0] for b, n in enumerate(mask.sum(1).tolist())] == paths


def padded_batch(T, lengths, K, dtype, device, seed=10):
    g = torch.Generator().manual_seed(seed)
    emissions = torch.randn(len(lengths), T, K, dtype=dtype, generator=g)
    params = [torch.randn(*shape, dtype=dtype, generator=g) for shape in ((K, K), (K,), (K,))]
    mask = torch.arange(T) < torch.tensor(lengths).unsqueeze(1)
    return [x.to(device).requires_grad_(x.is_floating_point()) for x in (emissions, mask, *params)]


def test_the_scan_equals_brute_force():
    emissions, transitions, start, end = random_crf(5, 3, seed=11)  # T - 1 = 4 products: two full levels
    scores = all_scores(emissions, transitions, start, end)
    log_z = crf_log_partition_scan(emissions[None], torch.ones(1, 5, dtype=torch.bool), transitions, start, end)
    expected = torch.logsumexp(torch.tensor(list(scores.values()), dtype=torch.float64), 0)
    assert log_z.item() == pytest.approx(expected.item(), rel=1e-12)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("T, lengths", [(1, [1, 1]), (2, [2, 1]), (7, [7, 1, 4, 6]), (12, [12, 9, 1, 2])],
                         ids=["T=1", "T=2", "T=7", "T=12"])
def test_the_scan_equals_the_forward_algorithm_with_gradients(device, dtype, T, lengths):
    inputs = padded_batch(T, lengths, 5, dtype, device)
    scan, loop = crf_log_partition_scan(*inputs), crf_log_partition(*inputs)
    torch.testing.assert_close(scan, loop, rtol=1e-5, atol=0)
    grads = [torch.autograd.grad(z.sum(), [x for x in inputs if x.requires_grad], allow_unused=True,
                                 materialize_grads=True) for z in (scan, loop)]
    for ours, theirs in zip(*grads):
        assert torch.isfinite(ours).all()  # padded steps are a finite identity: no NaN from logsumexp of -inf
        torch.testing.assert_close(ours, theirs, rtol=1e-5, atol=1e-6 if dtype == torch.float32 else 1e-12)


def test_crf_nll_is_the_same_on_every_device(device):
    """On a GPU crf_nll takes the scan, on a CPU the loop: same loss, same gradients."""
    emissions, mask, *params = padded_batch(9, [9, 3, 1, 6], 4, torch.float64, "cpu")
    tags = torch.randint(4, (4, 9), generator=torch.Generator().manual_seed(12))
    here = [x.detach().to(device).requires_grad_(x.is_floating_point()) for x in (emissions, mask, *params)]
    losses = [crf_nll(inputs[0], tags.to(inputs[0].device), *inputs[1:])
              for inputs in ((emissions, mask, *params), here)]
    torch.testing.assert_close(losses[1].cpu(), losses[0])
    for ours, theirs in zip(torch.autograd.grad(losses[1], [here[0], *here[2:]]),
                            torch.autograd.grad(losses[0], [emissions, *params])):
        torch.testing.assert_close(ours.cpu(), theirs)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_fused_viterbi_gives_the_loops_paths_and_scores(backend, device, dtype):
    emissions, mask, *params = (x.detach() for x in padded_batch(11, [11, 1, 5, 11, 2, 8], 7, dtype, device))
    assert crf_viterbi_fused(emissions, mask, *params) == crf_viterbi_batch(emissions, mask, *params)
    first = (emissions[:, :1], mask[:, :1], *params)  # T = 1
    assert crf_viterbi_fused(*first) == crf_viterbi_batch(*first)
    assert crf_viterbi_fused(emissions[:0], mask[:0], *params) == ([], [])


def test_fused_viterbi_breaks_ties_as_the_loop_does(backend, device):
    """Exact ties everywhere (zeros, and small integers): the loop keeps the lowest tag; so must the kernel."""
    g = torch.Generator().manual_seed(13)
    mask = (torch.arange(6) < torch.tensor([[6], [4], [1]])).to(device)
    zeros = (torch.zeros(3, 6, 5), torch.zeros(5, 5), torch.zeros(5), torch.zeros(5))
    small = (torch.randint(0, 2, (3, 6, 5), generator=g), torch.randint(-1, 2, (5, 5), generator=g),
             torch.zeros(5), torch.randint(0, 2, (5,), generator=g))
    for emissions, *params in (zeros, small):
        emissions, *params = (x.float().to(device) for x in (emissions, *params))
        assert crf_viterbi_fused(emissions, mask, *params) == crf_viterbi_batch(emissions, mask, *params)
