"""sequence_nll and perplexity against F.cross_entropy on the real tokens (padding dropped), at +-1000 and in
float64; perplexity of a uniform model is V."""
import math

import pytest
import torch
import torch.nn.functional as F

from seqmodels.training.losses import perplexity, sequence_nll


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_matches_cross_entropy_on_the_real_tokens(dtype, device):
    g = torch.Generator().manual_seed(0)
    logits = torch.randn(3, 5, 7, generator=g, dtype=dtype).to(device).requires_grad_()
    targets = torch.randint(7, (3, 5), generator=g).to(device)
    mask = torch.tensor([[1, 1, 1, 1, 1], [1, 1, 0, 0, 0], [1, 0, 0, 0, 0]], dtype=torch.bool, device=device)
    ours = sequence_nll(logits, targets, mask)
    theirs = F.cross_entropy(logits[mask], targets[mask])
    torch.testing.assert_close(ours, theirs)
    assert ours.dtype == dtype
    torch.testing.assert_close(torch.autograd.grad(ours, logits)[0], torch.autograd.grad(theirs, logits)[0])
    torch.testing.assert_close(perplexity(logits, targets, mask), torch.exp(theirs))


def test_padding_targets_do_not_matter_even_invalid_ones():
    g = torch.Generator().manual_seed(1)
    logits, mask = torch.randn(2, 3, 4, generator=g), torch.tensor([[True, True, True], [True, False, False]])
    targets = torch.tensor([[0, 1, 2], [3, 0, 0]])
    garbage = torch.tensor([[0, 1, 2], [3, 99, -100]])
    torch.testing.assert_close(sequence_nll(logits, garbage, mask), sequence_nll(logits, targets, mask))


def test_stable_for_huge_logits():
    logits = torch.tensor([[[1000.0, -1000.0, 0.0], [-1000.0, 1000.0, 1000.0]]], requires_grad=True)
    targets, mask = torch.tensor([[1, 2]]), torch.ones(1, 2, dtype=torch.bool)
    ours = sequence_nll(logits, targets, mask)
    torch.testing.assert_close(ours, F.cross_entropy(logits[0], targets[0]))
    ours.backward()
    assert torch.isfinite(logits.grad).all()


def test_uniform_model_has_perplexity_v():
    logits, targets = torch.zeros(2, 4, 11), torch.randint(11, (2, 4))
    torch.testing.assert_close(perplexity(logits, targets, torch.ones(2, 4, dtype=torch.bool)), torch.tensor(11.0))
    assert math.isclose(sequence_nll(logits, targets, torch.ones(2, 4, dtype=torch.bool)).item(), math.log(11),
                        rel_tol=1e-6)
