"""temperature_softmax against torch.softmax(logits / T); stable at small T; the limits T -> 0 and T -> inf."""
import pytest
import torch

from seqmodels.layers.sampling import temperature_softmax


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
