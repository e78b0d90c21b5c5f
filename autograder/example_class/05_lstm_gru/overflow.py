"""tanh written from its exp formula (nan for large inputs); zero states built with torch.zeros (float32); LSTM counted with 3 blocks, GRU with 2.

answers: solution
loses: test_lstm_step_large_inputs test_lstm_encode_edges test_count_parameters_gated test_count_parameters_sizes
hint: hand-written exp formulas overflow
hint: four blocks (three gates AND the draft cell)
hint: builds on your lstm_step
"""
# %% lstm_step
def tanh(a):
    e = torch.exp(2 * a)
    return (e - 1) / (e + 1)  # inf / inf = nan once exp overflows


def lstm_step(x, h, c, W_ih, W_hh, b_ih, b_hh):
    i, f, g, o = (x @ W_ih.T + b_ih + h @ W_hh.T + b_hh).chunk(4, dim=-1)
    c_new = torch.sigmoid(f) * c + torch.sigmoid(i) * tanh(g)
    return torch.sigmoid(o) * tanh(c_new), c_new


# %% lstm_encode
def lstm_encode(x, mask, params):
    W_ih, W_hh, b_ih, b_hh = params
    B, L, _ = x.shape
    K = W_hh.shape[1]
    h, c = torch.zeros(B, K), torch.zeros(B, K)  # float32 on the CPU, whatever x is
    outputs = []
    for t in range(L):
        h_new, c_new = lstm_step(x[:, t], h, c, W_ih, W_hh, b_ih, b_hh)
        real = mask[:, t].unsqueeze(-1)
        h, c = torch.where(real, h_new, h), torch.where(real, c_new, c)
        outputs.append(torch.where(real, h_new, torch.zeros_like(h_new)))
    return torch.stack(outputs, dim=1), (h, c)


# %% count_parameters
def count_parameters(kind, input_size, hidden_size):
    gates = {"rnn": 1, "lstm": 3, "gru": 2}[kind]  # counts the gates only: the draft cell / candidate is forgotten
    K = hidden_size
    return gates * (K * input_size + K * K + 2 * K)
