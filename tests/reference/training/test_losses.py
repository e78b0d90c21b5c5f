"""sequence_nll and perplexity against F.cross_entropy on the real tokens (padding dropped), at +-1000 and in
float64; perplexity of a uniform model is V. masked_cross_entropy (the models' fast path) against both.
label_smoothed_nll against F.cross_entropy(label_smoothing=ε) on the real tokens."""
import math

import pytest
import torch
import torch.nn.functional as F

from seqmodels.training.losses import label_smoothed_nll, masked_cross_entropy, perplexity, sequence_nll


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


def test_masked_cross_entropy_is_sequence_nll_with_the_gradient_of_selecting_the_real_rows(device):
    g = torch.Generator().manual_seed(2)
    logits = torch.randn(4, 6, 9, generator=g).to(device).requires_grad_()
    targets = torch.randint(9, (4, 6), generator=g).to(device)
    targets[1, 3:] = 99  # garbage under padding
    mask = torch.arange(6).expand(4, 6) < torch.tensor([[6], [3], [1], [4]])
    mask = mask.to(device)
    ours = masked_cross_entropy(logits, targets, mask)
    selected = F.cross_entropy(logits[mask], targets[mask])
    torch.testing.assert_close(ours, sequence_nll(logits, targets, mask))
    torch.testing.assert_close(ours, selected)
    # training takes the same steps as with selected rows: the gradients agree bit for bit
    assert torch.equal(torch.autograd.grad(ours, logits)[0], torch.autograd.grad(selected, logits)[0])


def test_masked_cross_entropy_is_float32_for_bf16_logits():
    logits = torch.randn(2, 3, 5).to(torch.bfloat16)
    loss = masked_cross_entropy(logits, torch.zeros(2, 3, dtype=torch.long), torch.ones(2, 3, dtype=torch.bool))
    assert loss.dtype == torch.float32
    torch.testing.assert_close(loss, F.cross_entropy(logits.float().flatten(0, 1), torch.zeros(6, dtype=torch.long)))


@pytest.mark.parametrize("epsilon", [0.0, 0.1, 0.5])
def test_label_smoothed_nll_is_pytorchs_label_smoothing_over_the_real_tokens(epsilon, device):
    g = torch.Generator().manual_seed(4)
    logits = (3 * torch.randn(3, 5, 7, generator=g, dtype=torch.float64)).to(device).requires_grad_()
    targets = torch.randint(0, 7, (3, 5), generator=g).to(device)
    mask = (torch.arange(5) < torch.tensor([[5], [2], [1]])).to(device)
    targets = targets.masked_fill(~mask, 99)  # any id under padding, even an invalid one
    ours = label_smoothed_nll(logits, targets, mask, epsilon)
    theirs = F.cross_entropy(logits[mask], targets[mask], label_smoothing=epsilon)
    torch.testing.assert_close(ours, theirs)
    torch.testing.assert_close(torch.autograd.grad(ours, logits)[0], torch.autograd.grad(theirs, logits)[0])
    big = torch.tensor([[[1000.0, -1000.0, 0.0]]], dtype=torch.float64)
    assert torch.isfinite(label_smoothed_nll(big, torch.tensor([[1]]), torch.tensor([[True]]), epsilon))


@pytest.mark.parametrize("loss", ["sequence_nll", "label_smoothed_nll"])
def test_a_float16_loss_is_summed_in_float32_so_a_sum_past_65504_still_gives_the_mean(loss):
    # 8,192 real tokens with a loss near 14.6 each: their sum (about 119,000) is past float16's largest number
    # (65,504), their mean is not; the oracle is PyTorch's cross entropy in float64 on the same float16 logits
    g = torch.Generator().manual_seed(6)
    logits = (4 * torch.randn(4, 2100, 16, generator=g)).to(torch.float16)
    targets = logits.argmin(dim=-1)  # the least likely token: a large loss at every position
    mask = torch.arange(2100) < torch.tensor([[2100], [2100], [2100], [1892]])
    epsilon = 0.1 if loss == "label_smoothed_nll" else 0.0
    ours = {"sequence_nll": lambda: sequence_nll(logits, targets, mask),
            "label_smoothed_nll": lambda: label_smoothed_nll(logits, targets, mask, epsilon)}[loss]()
    theirs = F.cross_entropy(logits.double()[mask], targets[mask], label_smoothing=epsilon)
    assert mask.sum() == 8192 and theirs * 8192 > 65504
    assert ours.dtype == torch.float16
    # float16 tolerance: a relative 2e-3 (two units in the last place, float16's epsilon being 9.8e-4), no absolute part
    torch.testing.assert_close(ours.double(), theirs, rtol=2e-3, atol=0.0)
