"""lstm_step adds b_ih only (one bias per block, as in Xiao's equations); gru_step forgets b_hh likewise.

answers: solution
loses: test_lstm_step_worked_example test_lstm_step_matches_lstmcell test_lstm_step_large_inputs test_lstm_encode_full test_lstm_encode_padding test_lstm_encode_edges test_gru_step_worked_example test_gru_step_reset_after test_gru_step_matches_grucell
hint: add both bias vectors, b_ih and b_hh
hint: in the order r, z, n; add both bias vectors
hint: builds on your lstm_step
"""
# %% lstm_step
def lstm_step(x, h, c, W_ih, W_hh, b_ih, b_hh):
    i, f, c_hat, o = (x @ W_ih.T + b_ih + h @ W_hh.T).chunk(4, dim=-1)  # b_hh is never added
    c_new = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(c_hat)
    return torch.sigmoid(o) * torch.tanh(c_new), c_new


# %% gru_step
def gru_step(x, h, W_ih, W_hh, b_ih, b_hh):
    x_r, x_z, x_n = (x @ W_ih.T + b_ih).chunk(3, dim=-1)
    h_r, h_z, h_n = (h @ W_hh.T).chunk(3, dim=-1)  # b_hh is never added
    r, z = torch.sigmoid(x_r + h_r), torch.sigmoid(x_z + h_z)
    return (1 - z) * torch.tanh(x_n + r * h_n) + z * h
