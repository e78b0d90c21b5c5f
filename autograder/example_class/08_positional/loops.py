"""Alternative correct answers: Python loops and math, torch.stack of rotation blocks, concatenation by repeat.

answers: solution
loses: nothing
"""
# %% offset_pe
def offset_pe(m, i0=0, i_max=None):
    scale = 1.0 if i_max is None else float(i_max - i0)
    return torch.tensor([(i - i0) / scale for i in range(m)], dtype=torch.float32)


# %% binary_pe
def binary_pe(i, num_bits):
    digits = []
    for _ in range(num_bits):
        digits.append(float(i % 2))
        i //= 2
    return torch.tensor(digits, dtype=torch.float32)


# %% sinusoidal_pe
def sinusoidal_pe(m, d, base=10000.0):
    rows = []
    for i in range(m):
        row = []
        for k in range(d // 2):
            angle = i / base ** (2 * k / d)
            row += [math.sin(angle), math.cos(angle)]
        rows.append(row)
    return torch.tensor(rows, dtype=torch.float32).reshape(m, d)


# %% pe_shift_matrix
def pe_shift_matrix(mu, d, base=10000.0):
    blocks = []
    for k in range(d // 2):
        angle = mu / base ** (2 * k / d)
        blocks.append(torch.tensor([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]]))
    return torch.block_diag(*blocks).to(torch.float32)


# %% add_positions
def add_positions(x, pe, mode="add"):
    rows = pe[: x.shape[1]].to(x.dtype)
    if mode == "concat":
        return torch.cat([x, rows.repeat(x.shape[0], 1, 1)], dim=2)
    return x + rows


# %% relative_distances
def relative_distances(m):
    return torch.tensor([abs(i - j) for i in range(m) for j in range(m)], dtype=torch.int64).reshape(m, m)
