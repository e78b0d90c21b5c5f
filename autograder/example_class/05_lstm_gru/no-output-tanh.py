"""lstm_step leaves tanh out of the output, h' = sigmoid(o) * c' instead of sigmoid(o) * tanh(c'); lstm_encode inherits it.

answers: solution
loses: test_lstm_step_worked_example test_lstm_step_matches_lstmcell test_lstm_step_large_inputs test_lstm_encode_full test_lstm_encode_padding test_lstm_encode_edges
hint: squash the new cell with tanh
hint: builds on your lstm_step
"""
# %% lstm_step
def lstm_step(x, h, c, W_ih, W_hh, b_ih, b_hh):
    i, f, g, o = (x @ W_ih.T + b_ih + h @ W_hh.T + b_hh).chunk(4, dim=-1)
    c_new = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
    return torch.sigmoid(o) * c_new, c_new  # no tanh on the cell
