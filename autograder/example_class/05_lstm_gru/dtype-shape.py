"""gate_update and lstm_step turn their results into float64 with .double() (right values, wrong dtype for float32 inputs); gru_step squeezes the batch dimension away, wrong for a batch of one; lstm_encode inherits lstm_step's float64.

answers: solution
loses: test_gate_update_hard test_gate_update_soft test_lstm_step_worked_example test_lstm_step_matches_lstmcell test_lstm_step_large_inputs test_lstm_encode_full test_lstm_encode_padding test_lstm_encode_edges test_gru_step_worked_example test_gru_step_reset_after test_gru_step_matches_grucell
hint: keep the inputs' dtype
hint: for a batch of one too: do not squeeze it
hint: builds on your lstm_step
"""
# %% gate_update
def gate_update(s, x, g):
    return (g * x + (1 - g) * s).double()


# %% lstm_step
def lstm_step(x, h, c, W_ih, W_hh, b_ih, b_hh):
    i, f, c_hat, o = (x @ W_ih.T + b_ih + h @ W_hh.T + b_hh).chunk(4, dim=-1)
    c_new = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(c_hat)
    return (torch.sigmoid(o) * torch.tanh(c_new)).double(), c_new.double()


# %% gru_step
def gru_step(x, h, W_ih, W_hh, b_ih, b_hh):
    x_r, x_z, x_n = (x @ W_ih.T + b_ih).chunk(3, dim=-1)
    h_r, h_z, h_n = (h @ W_hh.T + b_hh).chunk(3, dim=-1)
    r, z = torch.sigmoid(x_r + h_r), torch.sigmoid(x_z + h_z)
    return ((1 - z) * torch.tanh(x_n + r * h_n) + z * h).squeeze(0)
