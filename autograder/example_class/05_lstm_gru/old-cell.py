"""LSTM output from the OLD cell, tanh(c) instead of tanh(c'); lstm_encode outputs the carried state on padding.

answers: solution
loses: test_lstm_step_worked_example test_lstm_step_matches_lstmcell test_lstm_step_large_inputs test_lstm_encode_full test_lstm_encode_padding test_lstm_encode_edges
hint: uses the NEW cell
hint: builds on your lstm_step
"""
# %% lstm_step
def lstm_step(x, h, c, W_ih, W_hh, b_ih, b_hh):
    i, f, g, o = (x @ W_ih.T + b_ih + h @ W_hh.T + b_hh).chunk(4, dim=-1)
    h_new = torch.sigmoid(o) * torch.tanh(c)  # the cell before this step's update
    c_new = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
    return h_new, c_new


# %% lstm_encode
def lstm_encode(x, mask, params):
    W_ih, W_hh, b_ih, b_hh = params
    h = c = x.new_zeros(x.shape[0], W_hh.shape[1])
    outputs = []
    for t in range(x.shape[1]):
        h_new, c_new = lstm_step(x[:, t], h, c, W_ih, W_hh, b_ih, b_hh)
        real = mask[:, t].unsqueeze(-1)
        h, c = torch.where(real, h_new, h), torch.where(real, c_new, c)
        outputs.append(h)  # padding repeats the last state instead of 0
    return torch.stack(outputs, dim=1), (h, c)
