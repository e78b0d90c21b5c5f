"""Puts all sines first and all cosines second; adds the whole table (no slicing to L); drops the leading
zeros of binary digits; builds the distance matrix from a list, which breaks for m = 0.

answers: solution
loses: test_sinusoidal_pe_small test_sinusoidal_pe_layout test_sinusoidal_pe_formula test_add_positions_add test_add_positions_concat test_add_positions_edges test_binary_pe_edges test_relative_distances_edges
hint: sines in the even columns, cosines in the odd ones
hint: pad small numbers with zeros
hint: no positions: an empty [0, 0] LongTensor
"""
# %% sinusoidal_pe
def sinusoidal_pe(m, d, base=10000.0):
    omega = base ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)
    angles = torch.arange(m, dtype=torch.float64).unsqueeze(1) * omega
    return torch.cat([angles.sin(), angles.cos()], dim=1).float()  # [sin ... sin, cos ... cos]


# %% add_positions
def add_positions(x, pe, mode="add"):
    if mode == "add":
        return x + pe.to(x.dtype)  # every row of the table, not the first L
    return torch.cat([x, pe.to(x.dtype).expand(x.shape[0], -1, -1)], dim=-1)


# %% binary_pe
def binary_pe(i, num_bits):
    return torch.tensor([float(c) for c in reversed(bin(i)[2:])])  # only as many digits as i needs


# %% relative_distances
def relative_distances(m):
    return torch.tensor([[abs(i - j) for j in range(m)] for i in range(m)])  # m = 0: a float tensor of shape [0]
