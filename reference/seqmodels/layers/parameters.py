"""How many parameters a one-layer recurrent network has (Aziz F.13; Xiao Sec. 4.3), in PyTorch's layout.

Every block of a recurrent cell (the Elman update, each LSTM gate and the draft cell, each GRU
gate and the candidate) is one affine map of the input plus one of the previous state. PyTorch
stores them stacked, ``W_ih [G*K, I]``, ``W_hh [G*K, K]``, and gives each of the two maps its own
bias, ``b_ih`` and ``b_hh [G*K]``, so a layer with ``G`` blocks has ``G * (K*I + K*K + 2*K)``
parameters: G = 1 (Elman), 4 (LSTM: i, f, g, o; Aziz's eight affine maps F.13a-d) or 3 (GRU: r, z, n).
"""

BLOCKS = {"rnn": 1, "lstm": 4, "gru": 3}


def count_parameters(kind: str, input_size: int, hidden_size: int) -> int:
    """Weights and biases of a one-layer ``"rnn"``, ``"lstm"`` or ``"gru"`` with PyTorch's two bias vectors."""
    if kind not in BLOCKS:
        raise ValueError(f"kind must be one of {sorted(BLOCKS)}, got {kind!r}")
    K = hidden_size
    return BLOCKS[kind] * (K * input_size + K * K + 2 * K)  # W_ih, W_hh, b_ih, b_hh per block
