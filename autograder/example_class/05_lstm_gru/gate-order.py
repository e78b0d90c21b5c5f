"""LSTM blocks read in the order i, f, o, g (the order many diagrams draw); GRU interpolation as in Xiao's Eq. 4.30 with PyTorch's z.

answers: solution
loses: test_lstm_step_worked_example test_lstm_step_matches_lstmcell test_lstm_step_large_inputs test_lstm_encode_full test_lstm_encode_padding test_lstm_encode_edges test_gru_step_worked_example test_gru_step_reset_after test_gru_step_matches_grucell
hint: in PyTorch's order i, f, g, o (g is the draft)
hint: PyTorch's z weights the OLD state
hint: builds on your lstm_step
"""
# %% lstm_step
def lstm_step(x, h, c, W_ih, W_hh, b_ih, b_hh):
    i, f, o, g = (x @ W_ih.T + b_ih + h @ W_hh.T + b_hh).chunk(4, dim=-1)  # PyTorch's order is i, f, g, o
    c_new = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
    return torch.sigmoid(o) * torch.tanh(c_new), c_new


# %% gru_step
def gru_step(x, h, W_ih, W_hh, b_ih, b_hh):
    x_r, x_z, x_n = (x @ W_ih.T + b_ih).chunk(3, dim=-1)
    h_r, h_z, h_n = (h @ W_hh.T + b_hh).chunk(3, dim=-1)
    r, z = torch.sigmoid(x_r + h_r), torch.sigmoid(x_z + h_z)
    n = torch.tanh(x_n + r * h_n)
    return z * n + (1 - z) * h  # Xiao's u is PyTorch's 1 - z
