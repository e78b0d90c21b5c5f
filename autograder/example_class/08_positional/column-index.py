"""Uses the column index c instead of the pair index 2k in the frequencies; builds the transposed shift matrix
(column-vector convention); returns integer offsets.

answers: solution
loses: test_sinusoidal_pe_small test_sinusoidal_pe_layout test_sinusoidal_pe_formula test_pe_shift_matrix_small test_pe_shift_matrix_property test_offset_pe_examples
hint: the result is float32
hint: share one frequency w_k = 10000^(-2k/d) of the pair index k
hint: goes in row 2k, column 2k + 1
"""
# %% sinusoidal_pe
def sinusoidal_pe(m, d, base=10000.0):
    omega = base ** (-torch.arange(d, dtype=torch.float64) / d)  # one frequency per column
    angles = torch.arange(m, dtype=torch.float64).unsqueeze(1) * omega
    pe = angles.sin()
    pe[:, 1::2] = angles[:, 1::2].cos()
    return pe.float()


# %% pe_shift_matrix
def pe_shift_matrix(mu, d, base=10000.0):
    M = torch.zeros(d, d)
    for k in range(d // 2):
        angle = mu * base ** (-2 * k / d)
        M[2 * k:2 * k + 2, 2 * k:2 * k + 2] = torch.tensor([[math.cos(angle), math.sin(angle)],
                                                            [-math.sin(angle), math.cos(angle)]])  # M @ PE
    return M


# %% offset_pe
def offset_pe(m, i0=0, i_max=None):
    offsets = torch.arange(m) - i0  # int64 unless divided
    return offsets if i_max is None else offsets / (i_max - i0)
