"""Hard-codes 10000 instead of the base argument; normalises by i_max alone; ignores mode and x's dtype in
add_positions; computes relative distances with the forbidden torch.cdist.

answers: solution
loses: test_sinusoidal_pe_layout test_pe_shift_matrix_property test_offset_pe_normalised test_add_positions_concat test_add_positions_edges test_relative_distances test_relative_distances_edges
hint: the denominator is i_max - i0
hint: use the base you are given
hint: angle mu * w_k with w_k = base ** (-2k / d)
hint: keep x's dtype
"""
# %% sinusoidal_pe
def sinusoidal_pe(m, d, base=10000.0):
    omega = 10000.0 ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)  # base ignored
    angles = torch.arange(m, dtype=torch.float64).unsqueeze(1) * omega
    pe = torch.zeros(m, d, dtype=torch.float64)
    pe[:, 0::2], pe[:, 1::2] = angles.sin(), angles.cos()
    return pe.float()


# %% pe_shift_matrix
def pe_shift_matrix(mu, d, base=10000.0):
    M = torch.zeros(d, d)
    for k in range(d // 2):
        angle = mu * 10000.0 ** (-2 * k / d)  # base ignored
        M[2 * k, 2 * k], M[2 * k, 2 * k + 1] = math.cos(angle), -math.sin(angle)
        M[2 * k + 1, 2 * k], M[2 * k + 1, 2 * k + 1] = math.sin(angle), math.cos(angle)
    return M


# %% offset_pe
def offset_pe(m, i0=0, i_max=None):
    offsets = torch.arange(m, dtype=torch.float32) - i0
    return offsets if i_max is None else offsets / i_max  # should be i_max - i0


# %% add_positions
def add_positions(x, pe, mode="add"):
    return x + pe[: x.shape[1]]  # always adds, in the promoted dtype


# %% relative_distances
def relative_distances(m):
    positions = torch.arange(m, dtype=torch.float32).unsqueeze(1)
    return torch.cdist(positions, positions, p=1).long()
