"""linear_attention against the same computation run one step at a time as an RNN in float64 (Katharopoulos et
al., Eqs. 8-9), against softmax-free causal attention written as an L × L matrix, with H ≥ 2, d ≥ 2 and a large
eps; gradients."""
import pytest
import torch
from torch.nn import functional as F

from seqmodels.layers.linear_attention import linear_attention


def rnn(q, k, v, eps):
    batch, L, H, d = q.shape
    S, z, out = torch.zeros(batch, H, d, v.shape[-1], dtype=torch.float64), torch.zeros(batch, H, d,
                                                                                        dtype=torch.float64), []
    for t in range(L):
        phi_q, phi_k = F.elu(q[:, t]) + 1, F.elu(k[:, t]) + 1
        S = S + phi_k[..., None] * v[:, t, :, None, :]
        z = z + phi_k
        out.append((phi_q[..., None] * S).sum(-2) / ((phi_q * z).sum(-1, keepdim=True) + eps))
    return torch.stack(out, dim=1)


@pytest.mark.parametrize(("shape", "eps"), [((1, 1, 1, 1, 1), 1e-6), ((2, 9, 3, 4, 5), 1e-6), ((2, 5, 2, 3, 2), 10.0)])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_matches_the_rnn_form(shape, eps, dtype, device):
    batch, L, H, d, e = shape
    g = torch.Generator().manual_seed(L)
    q, k = (torch.randn(batch, L, H, d, generator=g, dtype=torch.float64) for _ in range(2))
    v = torch.randn(batch, L, H, e, generator=g, dtype=torch.float64)
    got = linear_attention(*(t.to(dtype).to(device) for t in (q, k, v)), eps=eps)
    assert got.dtype == dtype and got.shape == (batch, L, H, e)
    tol = 1e-5 if dtype == torch.float32 else 1e-12
    torch.testing.assert_close(got.cpu().double(), rnn(q, k, v, eps), atol=tol, rtol=tol)


def test_matches_the_quadratic_form():
    g = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(1, 6, 2, 3, generator=g, dtype=torch.float64) for _ in range(3))
    similarity = torch.einsum("bthd,bshd->bhts", F.elu(q) + 1, F.elu(k) + 1).tril()  # causal: s ≤ t
    expected = torch.einsum("bhts,bshe->bthe", similarity, v) / (similarity.sum(-1).transpose(1, 2)[..., None] + 1e-6)
    torch.testing.assert_close(linear_attention(q, k, v), expected)


def test_gradients():
    g = torch.Generator().manual_seed(1)
    args = tuple(torch.randn(1, 4, 2, 2, generator=g, dtype=torch.float64, requires_grad=True) for _ in range(3))
    assert torch.autograd.gradcheck(linear_attention, args)
