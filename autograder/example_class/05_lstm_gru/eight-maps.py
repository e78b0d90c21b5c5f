"""Alternative correct answers: Aziz's eight affine maps one block at a time, loops with mask arithmetic, s + g (x - s), counting shapes.

answers: solution
loses: nothing
"""
# %% gate_update
def gate_update(s, x, g):
    return s + g * (x - s)  # the same interpolation, rearranged


# %% lstm_step
def lstm_step(x, h, c, W_ih, W_hh, b_ih, b_hh):
    K = h.shape[-1]

    def block(k):  # the k-th of Aziz's input maps plus the k-th recurrent map
        rows = slice(k * K, (k + 1) * K)
        return x @ W_ih[rows].T + b_ih[rows] + h @ W_hh[rows].T + b_hh[rows]

    i, f, g, o = torch.sigmoid(block(0)), torch.sigmoid(block(1)), torch.tanh(block(2)), torch.sigmoid(block(3))
    c_new = f * c + i * g
    return o * torch.tanh(c_new), c_new


# %% lstm_encode
def lstm_encode(x, mask, params):
    B, L, _ = x.shape
    K = params[1].shape[1]
    h = torch.zeros(B, K, dtype=x.dtype, device=x.device)
    c = torch.zeros_like(h)
    columns = []
    for t in range(L):
        m = mask[:, t].to(x.dtype).unsqueeze(1)  # 1 on real tokens, 0 on padding
        h_new, c_new = lstm_step(x[:, t], h, c, *params)
        h = m * h_new + (1 - m) * h
        c = m * c_new + (1 - m) * c
        columns.append(m * h_new)
    return torch.stack(columns, dim=1), (h, c)


# %% gru_step
def gru_step(x, h, W_ih, W_hh, b_ih, b_hh):
    K = h.shape[-1]
    parts_x = [x @ W_ih[k * K:(k + 1) * K].T + b_ih[k * K:(k + 1) * K] for k in range(3)]
    parts_h = [h @ W_hh[k * K:(k + 1) * K].T + b_hh[k * K:(k + 1) * K] for k in range(3)]
    r = torch.sigmoid(parts_x[0] + parts_h[0])
    z = torch.sigmoid(parts_x[1] + parts_h[1])
    n = torch.tanh(parts_x[2] + r * parts_h[2])
    return n + z * (h - n)


# %% count_parameters
def count_parameters(kind, input_size, hidden_size):
    if kind == "rnn":
        G = 1
    elif kind == "lstm":
        G = 4
    elif kind == "gru":
        G = 3
    else:
        raise ValueError(kind)
    shapes = [(G * hidden_size, input_size), (G * hidden_size, hidden_size), (G * hidden_size,), (G * hidden_size,)]
    total = 0
    for shape in shapes:
        size = 1
        for n in shape:
            size *= n
        total += size
    return total
