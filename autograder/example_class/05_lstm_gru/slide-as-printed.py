"""Gate update copied from the slide as printed, (1 + g); count_parameters with a single bias vector per block.

answers: solution
loses: test_gate_update_hard test_gate_update_soft test_count_parameters_rnn test_count_parameters_gated test_count_parameters_sizes
hint: not (1 + g) * s
hint: TWO bias vectors
"""
# %% gate_update
def gate_update(s, x, g):
    return g * x + (1 + g) * s  # the slide's typo


# %% count_parameters
def count_parameters(kind, input_size, hidden_size):
    blocks = {"rnn": 1, "lstm": 4, "gru": 3}[kind]
    K = hidden_size
    return blocks * (K * input_size + K * K + K)  # one bias, as in the textbooks; PyTorch keeps two
