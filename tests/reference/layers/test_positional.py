"""Positional encodings against the source's worked numbers, numpy/math formulas, trigonometric identities
and brute force."""
import math

import numpy as np
import pytest
import torch

from seqmodels.layers.positional import (add_positions, binary_pe, offset_pe, pe_shift_matrix, relative_distances,
                                         sinusoidal_pe)


def test_offset_pe_counts_from_i0_and_normalises_by_i_max():
    assert offset_pe(4).tolist() == [0.0, 1.0, 2.0, 3.0]
    assert offset_pe(4, i0=2).tolist() == [-2.0, -1.0, 0.0, 1.0]  # negative before the reference point (Eq. 4.47)
    torch.testing.assert_close(offset_pe(5, i_max=4), torch.tensor([0.0, 0.25, 0.5, 0.75, 1.0]))  # in [0, 1]
    torch.testing.assert_close(offset_pe(3, i0=1, i_max=5), torch.tensor([-0.25, 0.0, 0.25]))
    assert offset_pe(1).dtype == torch.float32 and offset_pe(0).shape == (0,)
    with pytest.raises(ValueError, match="i_max"):
        offset_pe(3, i0=2, i_max=2)


def test_binary_pe_gives_xiaos_example_and_every_number_back():
    assert binary_pe(11, 4).tolist() == [1.0, 1.0, 0.0, 1.0]  # Xiao, below Eq. 4.52
    for i in range(64):
        digits = binary_pe(i, 6)
        assert digits.dtype == torch.float32
        assert sum(int(a) * 2**k for k, a in enumerate(digits)) == i  # Eq. 4.51 with b = 2
        assert digits.tolist() == [float(c) for c in reversed(format(i, "06b"))]
    with pytest.raises(ValueError, match="does not fit"):
        binary_pe(16, 4)


@pytest.mark.parametrize("m, d, base", [(1, 2, 10000.0), (7, 6, 10000.0), (100, 512, 10000.0), (20, 8, 50.0)])
def test_sinusoidal_pe_matches_the_formula_computed_with_numpy(m, d, base):
    i = np.arange(m)[:, None]
    k = np.arange(d // 2)[None, :]
    expected = np.zeros((m, d))
    expected[:, 0::2] = np.sin(i / base ** (2 * k / d))  # Eq. 4.57
    expected[:, 1::2] = np.cos(i / base ** (2 * k / d))  # Eq. 4.58
    pe = sinusoidal_pe(m, d, base)
    assert pe.shape == (m, d) and pe.dtype == torch.float32
    torch.testing.assert_close(pe, torch.tensor(expected, dtype=torch.float32), atol=1e-6, rtol=0)


def test_sinusoidal_pe_worked_values_and_odd_d():
    pe = sinusoidal_pe(3, 4)
    torch.testing.assert_close(pe[0], torch.tensor([0.0, 1.0, 0.0, 1.0]))
    torch.testing.assert_close(pe[2], torch.tensor([math.sin(2), math.cos(2), math.sin(0.02), math.cos(0.02)]))
    with pytest.raises(ValueError, match="even"):
        sinusoidal_pe(3, 5)


@pytest.mark.parametrize("mu, d, base", [(0, 4, 10000.0), (1, 2, 10000.0), (5, 16, 10000.0), (13, 64, 100.0),
                                         (-3, 8, 10000.0)])
def test_the_shift_matrix_moves_every_position_by_mu(mu, d, base):
    table = sinusoidal_pe(60, d, base).double()
    M = pe_shift_matrix(mu, d, base)
    assert M.shape == (d, d) and M.dtype == torch.float32
    start, stop = max(0, -mu), min(60, 60 - mu)
    torch.testing.assert_close(table[start:stop] @ M.double(), table[start + mu:stop + mu], atol=1e-6, rtol=0)


def test_the_shift_matrix_is_a_block_of_rotations_with_the_corrected_sign():
    M = pe_shift_matrix(1, 2)  # w_0 = 1: rotate (sin i, cos i) by 1 radian
    c, s = math.cos(1.0), math.sin(1.0)
    torch.testing.assert_close(M, torch.tensor([[c, -s], [s, c]]))  # a plus sign (Xiao's Eq. 4.62) fails here
    M = pe_shift_matrix(4, 10).double()
    torch.testing.assert_close(M @ M.T, torch.eye(10, dtype=torch.float64), atol=1e-6, rtol=0)
    torch.testing.assert_close(M @ pe_shift_matrix(-4, 10).double(), torch.eye(10, dtype=torch.float64), atol=1e-6,
                               rtol=0)
    assert torch.count_nonzero(M) == 2 * 10  # only the 2x2 blocks on the diagonal


def test_add_positions_adds_or_concatenates_the_first_L_rows():
    g = torch.Generator().manual_seed(0)
    x = torch.randn(3, 4, 6, dtype=torch.float64, generator=g, requires_grad=True)
    pe = sinusoidal_pe(10, 6)
    added = add_positions(x, pe)
    assert added.dtype == torch.float64
    for b in range(3):
        for i in range(4):
            torch.testing.assert_close(added[b, i], x[b, i] + pe[i].double())  # Eq. 4.63, one position at a time
    joined = add_positions(x, sinusoidal_pe(6, 2), mode="concat")
    assert joined.shape == (3, 4, 8)
    torch.testing.assert_close(joined[..., :6], x)
    torch.testing.assert_close(joined[1, :, 6:], sinusoidal_pe(4, 2).double())  # Eq. 4.50
    (added.sum() + joined.sum()).backward()
    torch.testing.assert_close(x.grad, torch.full_like(x, 2.0))
    with pytest.raises(ValueError, match="positions"):
        add_positions(x, sinusoidal_pe(3, 6))
    with pytest.raises(ValueError, match="mode"):
        add_positions(x, pe, mode="multiply")


def test_relative_distances_by_brute_force():
    for m in (0, 1, 2, 7):
        d = relative_distances(m)
        assert d.dtype == torch.long and d.shape == (m, m)
        assert d.tolist() == [[abs(i - j) for j in range(m)] for i in range(m)]  # Eq. 4.65
