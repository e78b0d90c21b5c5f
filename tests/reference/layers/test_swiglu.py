"""swiglu against Shazeer's FFN_SwiGLU written out in float64 (Swish as z / (1 + e^−z), loops over the
hidden units); swiglu_width keeps the GELU network's parameter count to within one hidden unit."""
import math

import pytest
import torch

from seqmodels.layers.swiglu import swiglu, swiglu_width


def swiglu_by_hand(x, w_gate, w_up, w_down):
    """(Swish(x W) ⊗ x V) W2 for one vector x, unit by unit, in Python floats (float64)."""
    hidden = []
    for j in range(len(w_gate)):
        gate = sum(float(a) * float(w) for a, w in zip(x, w_gate[j]))
        hidden.append(gate / (1.0 + math.exp(-gate)) * sum(float(a) * float(v) for a, v in zip(x, w_up[j])))
    return [sum(h * float(w) for h, w in zip(hidden, row)) for row in w_down]


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_swiglu_matches_the_formula_by_hand(dtype, device):
    g = torch.Generator().manual_seed(20)
    D, F_ = 5, 7
    x, w_gate, w_up, w_down = (torch.randn(*shape, generator=g, dtype=dtype) * 2
                               for shape in [(2, 3, D), (F_, D), (F_, D), (D, F_)])
    ours = swiglu(*(t.to(device) for t in (x, w_gate, w_up, w_down))).cpu()
    expected = torch.tensor([[swiglu_by_hand(v, w_gate, w_up, w_down) for v in row] for row in x], dtype=dtype)
    tolerance = {"rtol": 1e-5, "atol": 1e-5} if dtype == torch.float32 else {"rtol": 1e-12, "atol": 1e-12}
    torch.testing.assert_close(ours, expected, **tolerance)


def test_swiglu_is_differentiable_in_every_weight():
    params = [torch.randn(*shape, dtype=torch.float64, requires_grad=True) for shape in [(4,), (6, 4), (6, 4), (4, 6)]]
    assert torch.autograd.gradcheck(lambda *p: swiglu(*p), params)


@pytest.mark.parametrize("dim, feedforward", [(64, 256), (256, 1024), (16, 32)])
def test_the_width_keeps_the_parameter_count(dim, feedforward):
    gelu = 2 * dim * feedforward + feedforward + dim  # W1, b1, W2, b2
    width = swiglu_width(dim, feedforward)
    assert abs(3 * dim * width - gelu) <= 3 * dim / 2  # the nearest width: within half a hidden unit's weights
    # 2/3 of the GELU width plus the biases' share, (F + D) / 3D hidden units, rounded
    assert abs(width - 2 * feedforward / 3) <= (feedforward + dim) / (3 * dim) + 0.5
