"""Counts positions from 1 (offset_pe, sinusoidal_pe) and forgets the absolute value in relative_distances.

answers: solution
loses: test_offset_pe_examples test_offset_pe_normalised test_sinusoidal_pe_small test_sinusoidal_pe_layout test_sinusoidal_pe_formula test_relative_distances
hint: positions count from 0
hint: sines in the even columns, cosines in the odd ones
hint: the absolute value |i - j|
"""
# %% offset_pe
def offset_pe(m, i0=0, i_max=None):
    offsets = torch.arange(1, m + 1, dtype=torch.float32) - i0  # positions 1..m
    return offsets if i_max is None else offsets / (i_max - i0)


# %% sinusoidal_pe
def sinusoidal_pe(m, d, base=10000.0):
    omega = base ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)
    angles = torch.arange(1, m + 1, dtype=torch.float64).unsqueeze(1) * omega  # positions 1..m
    pe = torch.zeros(m, d, dtype=torch.float64)
    pe[:, 0::2], pe[:, 1::2] = angles.sin(), angles.cos()
    return pe.float()


# %% relative_distances
def relative_distances(m):
    positions = torch.arange(m)
    return positions[:, None] - positions[None, :]  # i - j, negative above the diagonal
