"""PyTorch's shortcuts: torch.lerp, torch.lstm_cell (via torch._VF), torch.gru_cell, and counting an nn.LSTM's parameters.

answers: solution
loses: test_gate_update_hard test_gate_update_soft test_lstm_step_worked_example test_lstm_step_matches_lstmcell test_lstm_step_large_inputs test_lstm_encode_full test_lstm_encode_padding test_lstm_encode_edges test_gru_step_worked_example test_gru_step_reset_after test_gru_step_matches_grucell test_count_parameters_rnn test_count_parameters_gated test_count_parameters_sizes
hint: builds on your lstm_step
"""
# %% gate_update
def gate_update(s, x, g):
    return torch.lerp(s, x, g)


# %% lstm_step
def lstm_step(x, h, c, W_ih, W_hh, b_ih, b_hh):
    return torch._VF.lstm_cell(x, (h, c), W_ih, W_hh, b_ih, b_hh)


# %% gru_step
def gru_step(x, h, W_ih, W_hh, b_ih, b_hh):
    return torch.gru_cell(x, h, W_ih, W_hh, b_ih, b_hh)


# %% count_parameters
def count_parameters(kind, input_size, hidden_size):
    layer = {"rnn": nn.RNN, "lstm": nn.LSTM, "gru": nn.GRU}[kind](input_size, hidden_size)
    return sum(p.numel() for p in layer.parameters())
