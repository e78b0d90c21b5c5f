"""clip_grad_norm against torch.nn.utils.clip_grad_norm_ (global norm, Xiao Eq. 4.13)."""
import pytest
import torch

from seqmodels.training.clipping import clip_grad_norm


@pytest.mark.parametrize("tau", [0.1, 1.0, 5.0, 1e6])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_matches_torch_in_place_clipping(tau, dtype, device):
    g = torch.Generator().manual_seed(int(tau * 10) % 97)
    grads = [torch.randn(*shape, generator=g, dtype=dtype).to(device) for shape in [(3, 4), (4,), (2, 2, 2)]]
    params = [torch.zeros_like(x, requires_grad=True) for x in grads]
    for p, x in zip(params, grads):
        p.grad = x.clone()
    torch.nn.utils.clip_grad_norm_(params, tau)
    ours = clip_grad_norm(grads, tau)
    for mine, p in zip(ours, params):
        assert mine.dtype == dtype and mine.shape == p.shape
        torch.testing.assert_close(mine, p.grad, rtol=1e-5, atol=1e-6)  # torch adds 1e-6 to the norm


def test_global_not_per_tensor_and_inputs_untouched():
    grads = [torch.tensor([3.0, 0.0]), torch.tensor([[0.0], [4.0]])]  # global norm 5
    before = [x.clone() for x in grads]
    clipped = clip_grad_norm(grads, 1.0)
    torch.testing.assert_close(clipped[0], torch.tensor([0.6, 0.0]))
    torch.testing.assert_close(clipped[1], torch.tensor([[0.0], [0.8]]))
    for x, y in zip(grads, before):
        torch.testing.assert_close(x, y)


def test_small_and_zero_gradients_are_unchanged():
    grads = [torch.tensor([0.3, -0.4]), torch.zeros(3)]
    for mine, x in zip(clip_grad_norm(grads, 1.0), grads):
        torch.testing.assert_close(mine, x)
    assert clip_grad_norm([], 1.0) == []
