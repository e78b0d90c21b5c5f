"""CTC against F.ctc_loss (all reductions, padded and concatenated targets, gradients) and brute-force enumeration."""
import itertools
import math

import pytest
import torch
from torch.nn import functional as F

from seqmodels.structured.ctc import ctc_alpha, ctc_collapse, ctc_extend, ctc_greedy_decode, ctc_loss


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


def test_an_impossible_alignment_costs_infinity_like_pytorch():
    log_probs = torch.randn(2, 1, 3, dtype=torch.float64).log_softmax(-1)
    targets, lengths = torch.tensor([[1, 1]]), torch.tensor([2])  # "1 1" needs 3 frames
    ours = ctc_loss(log_probs, targets, torch.tensor([2]), lengths, reduction="none")
    assert torch.isinf(ours).all() and torch.isinf(F.ctc_loss(log_probs, targets, torch.tensor([2]), lengths, reduction="none")).all()


def test_greedy_decoding_takes_the_best_path():
    log_probs = torch.log(torch.tensor([[0.1, 0.8, 0.1], [0.1, 0.8, 0.1], [0.9, 0.05, 0.05], [0.1, 0.1, 0.8]]))
    assert ctc_greedy_decode(log_probs) == [1, 2]
