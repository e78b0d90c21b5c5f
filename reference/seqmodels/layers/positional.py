"""Positional encoding (Xiao & Zhu 4.4.3): telling an order-blind model where each input sits.

Positions count from 0: a sequence of length m has positions 0, ..., m-1. Encodings that
this module builds from nothing but integers (``offset_pe``, ``binary_pe``, ``sinusoidal_pe``,
``pe_shift_matrix``) come in PyTorch's default float dtype (float32 unless changed);
``add_positions`` follows the dtype and device of its input ``x``. In formulas::

    offset:      PE(i) = i - i0, or (i - i0) / (i_max - i0)                 (Eqs. 4.47, 4.49)
    binary:      PE(i) = [a(i, 0), a(i, 1), ...], the base-2 digits of i   (Eqs. 4.51-4.52)
    sinusoidal:  PE(i, 2k) = sin(i w_k), PE(i, 2k+1) = cos(i w_k),
                 w_k = base^(-2k/d)                                         (Eqs. 4.57-4.58)
    shift:       PE(i + mu) = PE(i) @ M(mu), M block-diagonal rotations     (Eqs. 4.59-4.62)
    merge:       xp_i = x_i + PE(i)  or  [x_i, PE(i)]                       (Eqs. 4.63, 4.50)
    relative:    PE(i, j) = |i - j|                                         (Eq. 4.65)

Xiao's Eq. (4.62) prints the cosine of a sum with a plus sign; cos(a + b) = cos a cos b - sin a sin b
(Eq. 4.60), so ``pe_shift_matrix`` puts a minus sign in each rotation block.
"""
import torch


def offset_pe(m: int, i0: int = 0, i_max: int | None = None) -> torch.Tensor:
    """The offsets ``i - i0`` of positions i = 0..m-1, divided by ``i_max - i0`` when ``i_max`` is given: ``[m]``."""
    offsets = torch.arange(m, dtype=torch.get_default_dtype()) - i0  # Eq. 4.47
    if i_max is None:
        return offsets
    if i_max == i0:
        raise ValueError("offset_pe: i_max must differ from i0 (the normalisation divides by i_max - i0)")
    return offsets / (i_max - i0)  # Eq. 4.49


def binary_pe(i: int, num_bits: int) -> torch.Tensor:
    """The ``num_bits`` base-2 digits of ``i``, least significant first (Eq. 4.52: PE(11) = [1, 1, 0, 1])."""
    if i < 0 or i >= 2**num_bits:
        raise ValueError(f"binary_pe: {i} does not fit in {num_bits} bits (0 <= i < {2**num_bits})")
    powers = 2 ** torch.arange(num_bits)  # b^k of Eq. 4.51 with b = 2
    return ((i // powers) % 2).to(torch.get_default_dtype())


def _frequencies(d: int, base: float) -> torch.Tensor:
    """w_k = base^(-2k/d) for k = 0..d/2-1 (Eq. 4.54 with the exponent of Eqs. 4.57-4.58), in float64."""
    if d <= 0 or d % 2:
        raise ValueError(f"sinusoidal positional encodings need an even, positive d, got {d}")
    return float(base) ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)


def sinusoidal_pe(m: int, d: int, base: float = 10000.0) -> torch.Tensor:
    """The sinusoidal encodings of positions 0..m-1: even columns sin(i w_k), odd columns cos(i w_k); ``[m, d]``."""
    angles = torch.arange(m, dtype=torch.float64).unsqueeze(1) * _frequencies(d, base)  # [m, d/2]
    pe = torch.stack([angles.sin(), angles.cos()], dim=-1)  # [m, d/2, 2]: (sin, cos) pairs, Eqs. 4.57-4.58
    return pe.reshape(m, d).to(torch.get_default_dtype())


def pe_shift_matrix(mu: int, d: int, base: float = 10000.0) -> torch.Tensor:
    """The ``[d, d]`` matrix M with ``sinusoidal_pe(...)[i + mu] == sinusoidal_pe(...)[i] @ M`` for every i.

    Block k rotates the pair (sin i w_k, cos i w_k) by the angle mu w_k (Eqs. 4.61-4.62, with the
    minus sign of cos(a + b) = cos a cos b - sin a sin b that Xiao's Eq. 4.62 drops).
    """
    angles = mu * _frequencies(d, base)
    cos, sin = angles.cos(), angles.sin()
    M = torch.zeros(d, d, dtype=torch.float64)
    even = torch.arange(0, d, 2)
    M[even, even] = cos  # sin' = sin cos(mu w) + cos sin(mu w)   (Eq. 4.61)
    M[even + 1, even] = sin
    M[even, even + 1] = -sin  # cos' = cos cos(mu w) - sin sin(mu w)   (Eq. 4.62, sign corrected)
    M[even + 1, even + 1] = cos
    return M.to(torch.get_default_dtype())


def add_positions(x: torch.Tensor, pe: torch.Tensor, mode: str = "add") -> torch.Tensor:
    """Merge the first L rows of the table ``pe [L_max, D_pe]`` into ``x [B, L, D]`` (Eq. 4.46).

    ``mode="add"``: ``x + pe[:L]`` (Eq. 4.63; D_pe = D), shape ``[B, L, D]``; ``mode="concat"``:
    ``[x_i, PE(i)]`` (Eq. 4.50), shape ``[B, L, D + D_pe]``. The table is used in ``x``'s dtype and device.
    """
    if x.dim() != 3 or pe.dim() != 2:
        raise ValueError(f"add_positions expects x [B, L, D] and pe [L_max, D], got {tuple(x.shape)} and "
                         f"{tuple(pe.shape)}")
    B, L, D = x.shape
    if L > pe.shape[0]:
        raise ValueError(f"add_positions: the table has {pe.shape[0]} positions, the sequences {L}")
    rows = pe[:L].to(dtype=x.dtype, device=x.device)
    if mode == "add":
        if pe.shape[1] != D:
            raise ValueError(f"add_positions(mode='add') needs pe of width {D}, got {pe.shape[1]}")
        return x + rows
    if mode == "concat":
        return torch.cat([x, rows.expand(B, L, rows.shape[1])], dim=-1)
    raise ValueError(f"add_positions: mode must be 'add' or 'concat', got {mode!r}")


def relative_distances(m: int) -> torch.Tensor:
    """The distances ``|i - j|`` between all pairs of positions 0..m-1 (Eq. 4.65): LongTensor ``[m, m]``."""
    positions = torch.arange(m)
    return (positions.unsqueeze(1) - positions.unsqueeze(0)).abs()
