"""Copies Xiao's Eq. 4.62 with its plus sign; writes the binary digits most significant first; concatenates [PE, x].

answers: solution
loses: test_pe_shift_matrix_small test_pe_shift_matrix_property test_binary_pe_example test_binary_pe_edges test_add_positions_concat
hint: the least significant digit comes first
hint: goes in row 2k, column 2k + 1
hint: the word vector first
"""
# %% pe_shift_matrix
def pe_shift_matrix(mu, d, base=10000.0):
    M = torch.zeros(d, d)
    for k in range(d // 2):
        angle = mu * base ** (-2 * k / d)
        M[2 * k, 2 * k], M[2 * k + 1, 2 * k] = math.cos(angle), math.sin(angle)
        M[2 * k, 2 * k + 1], M[2 * k + 1, 2 * k + 1] = math.sin(angle), math.cos(angle)  # + sin, as printed
    return M


# %% binary_pe
def binary_pe(i, num_bits):
    return torch.tensor([float(c) for c in format(i, f"0{num_bits}b")])  # most significant digit first


# %% add_positions
def add_positions(x, pe, mode="add"):
    B, L, _ = x.shape
    rows = pe[:L].to(x.dtype)
    if mode == "add":
        return x + rows
    return torch.cat([rows.expand(B, L, rows.shape[1]), x], dim=-1)  # position first
