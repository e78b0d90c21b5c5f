"""CTC against F.ctc_loss (all reductions, padded and concatenated targets, gradients) and brute-force enumeration;
prefix beam search against the most probable labelling found by enumerating every path."""
import itertools
import math

import pytest
import torch
from torch.nn import functional as F

from seqmodels.structured.ctc import (ctc_alpha, ctc_collapse, ctc_extend, ctc_greedy_decode, ctc_loss,
                                     ctc_prefix_beam_search)


def test_collapse_and_extend_on_xiaos_examples():
    assert ctc_collapse([0, 1, 1, 0, 1, 2, 2, 0]) == [1, 1, 2]
    assert ctc_collapse([3, 3, 3]) == [3] and ctc_collapse([0, 0]) == []
    assert ctc_extend([1, 2]) == [0, 1, 0, 2, 0] and ctc_extend([]) == [0]


def test_the_forward_algorithm_equals_brute_force_enumeration():
    g = torch.Generator().manual_seed(0)
    log_probs = torch.randn(5, 3, dtype=torch.float64, generator=g).log_softmax(-1)
    for target in ([1], [1, 2], [1, 1], [2, 1, 2], []):
        total = sum(math.exp(sum(log_probs[t, c].item() for t, c in enumerate(path)))
                    for path in itertools.product(range(3), repeat=5) if ctc_collapse(list(path)) == target)
        alpha = ctc_alpha(log_probs, target)
        finals = alpha[-1, -2:] if target else alpha[-1, -1:]
        assert torch.logsumexp(finals, 0).exp().item() == pytest.approx(total, rel=1e-10), target


@pytest.mark.parametrize("reduction", ["none", "sum", "mean"])
@pytest.mark.parametrize("layout", ["padded", "concatenated"])
def test_ctc_loss_matches_pytorch_with_gradients(reduction, layout):
    g = torch.Generator().manual_seed(1)
    T, B, C = 12, 4, 5
    logits = torch.randn(T, B, C, dtype=torch.float64, generator=g, requires_grad=True)
    input_lengths = torch.tensor([12, 9, 7, 12])
    target_lengths = torch.tensor([3, 4, 1, 0])
    padded = torch.randint(1, C, (B, 4), generator=g)
    padded[1, :2] = 2  # a repeat, which needs a blank between
    targets = padded if layout == "padded" else torch.cat([padded[b, :n] for b, n in enumerate(target_lengths)])
    ours = ctc_loss(logits.log_softmax(-1), targets, input_lengths, target_lengths, reduction=reduction)
    grad_ours, = torch.autograd.grad(ours.sum(), logits)
    theirs = F.ctc_loss(logits.log_softmax(-1), targets, input_lengths, target_lengths, reduction=reduction)
    grad_theirs, = torch.autograd.grad(theirs.sum(), logits)
    torch.testing.assert_close(ours, theirs)
    torch.testing.assert_close(grad_ours, grad_theirs)


def test_padding_wider_than_the_longest_target_is_ignored_whatever_it_holds(device):
    g = torch.Generator().manual_seed(4)
    T, B, C = 10, 3, 6
    log_probs = torch.randn(T, B, C, dtype=torch.float64, generator=g).log_softmax(-1).to(device)
    target_lengths = torch.tensor([2, 3, 0], device=device)
    padded = torch.randint(1, C, (B, 7), generator=g).to(device)  # 7 columns for targets of at most 3
    garbage = padded.clone()
    garbage[0, 2:], garbage[1, 3:], garbage[2, :] = -1, C + 5, 99  # ids no alphabet has, under padding only
    input_lengths = torch.tensor([10, 8, 5], device=device)
    expected = F.ctc_loss(log_probs, padded, input_lengths, target_lengths, reduction="none")
    torch.testing.assert_close(ctc_loss(log_probs, garbage, input_lengths, target_lengths, reduction="none"), expected)


@pytest.mark.parametrize("targets", [torch.zeros(0, 3, dtype=torch.long), torch.zeros(0, dtype=torch.long)],
                         ids=["padded", "concatenated"])
def test_an_empty_batch_has_no_losses(targets):
    log_probs, none = torch.randn(5, 0, 4).log_softmax(-1), torch.zeros(0, dtype=torch.long)
    assert ctc_loss(log_probs, targets, none, none, reduction="none").shape == (0,)


def test_an_impossible_alignment_costs_infinity_like_pytorch():
    log_probs = torch.randn(2, 1, 3, dtype=torch.float64).log_softmax(-1)
    targets, lengths = torch.tensor([[1, 1]]), torch.tensor([2])  # "1 1" needs 3 frames
    ours = ctc_loss(log_probs, targets, torch.tensor([2]), lengths, reduction="none")
    assert torch.isinf(ours).all() and torch.isinf(F.ctc_loss(log_probs, targets, torch.tensor([2]), lengths, reduction="none")).all()


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_one_frame_batch_one_and_peaked_inputs_match_pytorch(dtype):
    g = torch.Generator().manual_seed(2)
    cases = [(torch.randn(1, 1, 3, dtype=dtype, generator=g), torch.tensor([[2]]), [1], [1]),  # T = 1, B = 1
             (torch.randn(1, 2, 3, dtype=dtype, generator=g), torch.tensor([[1], [0]]), [1, 1], [1, 0]),
             (1000 * torch.randn(9, 2, 4, dtype=dtype, generator=g), torch.tensor([[1, 2, 1], [3, 3, 0]]), [9, 7], [3, 2])]
    for logits, targets, input_lengths, target_lengths in cases:
        logits.requires_grad_()
        args = (targets, torch.tensor(input_lengths), torch.tensor(target_lengths))
        ours = ctc_loss(logits.log_softmax(-1), *args, reduction="sum")
        theirs = F.ctc_loss(logits.log_softmax(-1), *args, reduction="sum")
        tol = {"rtol": 1e-4, "atol": 1e-3} if dtype == torch.float32 else {}  # float32 ulp at -2000 is 1e-4
        torch.testing.assert_close(ours, theirs, **tol)
        torch.testing.assert_close(torch.autograd.grad(ours, logits)[0], torch.autograd.grad(theirs, logits)[0], **tol)
        assert ours.dtype == dtype


def test_greedy_decoding_takes_the_best_path():
    log_probs = torch.log(torch.tensor([[0.1, 0.8, 0.1], [0.1, 0.8, 0.1], [0.9, 0.05, 0.05], [0.1, 0.1, 0.8]]))
    assert ctc_greedy_decode(log_probs) == [1, 2]


def labelling_probabilities(log_probs: torch.Tensor, blank: int = 0) -> dict[tuple[int, ...], float]:
    """p(y | x) of every labelling y, by summing over all C^T paths (Eq. 4.73 by brute force)."""
    T, C = log_probs.shape
    totals: dict[tuple[int, ...], float] = {}
    for path in itertools.product(range(C), repeat=T):
        y = tuple(ctc_collapse(list(path), blank))
        totals[y] = totals.get(y, 0.0) + math.exp(sum(log_probs[t, c].item() for t, c in enumerate(path)))
    return totals


@pytest.mark.parametrize("seed", range(6))
def test_a_wide_prefix_beam_finds_the_most_probable_labelling(seed):
    g = torch.Generator().manual_seed(seed)
    T, C = (5, 3) if seed % 2 else (4, 4)
    log_probs = (2 * torch.randn(T, C, dtype=torch.float64, generator=g)).log_softmax(-1)
    blank = seed % C
    totals = labelling_probabilities(log_probs, blank)
    best = max(totals, key=totals.get)
    labels, log_p = ctc_prefix_beam_search(log_probs, beam_size=len(totals), blank=blank)
    assert labels == list(best)
    assert log_p == pytest.approx(math.log(totals[best]), rel=1e-10)
    if labels:  # the beam's probability is the CTC probability of its labelling
        loss = ctc_loss(log_probs.unsqueeze(1), torch.tensor([labels]), [T], [len(labels)], blank, "none")
        assert -loss.item() == pytest.approx(log_p, rel=1e-10)


def test_prefix_beam_search_beats_the_best_path_where_alignments_add_up():
    # two frames, p(blank) = 0.6, p(a) = 0.4: the best path "ε ε" gives "" (0.36), but "a" has
    # three alignments ("a a", "a ε", "ε a") worth 0.16 + 0.24 + 0.24 = 0.64
    log_probs = torch.tensor([[0.6, 0.4], [0.6, 0.4]]).log()
    assert ctc_greedy_decode(log_probs) == []
    labels, log_p = ctc_prefix_beam_search(log_probs, beam_size=4)
    assert labels == [1] and math.exp(log_p) == pytest.approx(0.64)


def test_prefix_beam_search_keeps_repeats_apart_only_through_a_blank():
    probs = torch.tensor([[0.05, 0.9, 0.05], [0.9, 0.05, 0.05], [0.05, 0.9, 0.05]])  # "a ε a" dominates
    assert ctc_prefix_beam_search(probs.log(), beam_size=3)[0] == [1, 1]
    probs = torch.tensor([[0.05, 0.9, 0.05], [0.05, 0.9, 0.05], [0.05, 0.05, 0.9]])  # "a a b" -> "a b"
    assert ctc_prefix_beam_search(probs.log(), beam_size=3)[0] == [1, 2]
    labels, log_p = ctc_prefix_beam_search(torch.tensor([[0.2, 0.5, 0.3]]).log(), beam_size=1)  # one frame
    assert labels == [1] and log_p == pytest.approx(math.log(0.5))
