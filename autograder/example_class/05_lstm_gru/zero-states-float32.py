"""lstm_encode starts from float32 zero states, torch.zeros(B, H), whatever the inputs' dtype: float64 inputs meet them in the (correct) lstm_step, whose matrix product raises.

answers: solution
loses: test_lstm_encode_edges
hint: your code mixes tensors of different dtypes
hint: keep the inputs' dtype
"""
# %% lstm_encode
def lstm_encode(x, mask, params):
    W_ih, W_hh, b_ih, b_hh = params
    h = c = torch.zeros(x.shape[0], W_hh.shape[1])  # float32, whatever x is
    outputs = []
    for t in range(x.shape[1]):
        h_new, c_new = lstm_step(x[:, t], h, c, W_ih, W_hh, b_ih, b_hh)
        real = mask[:, t].unsqueeze(-1)
        h, c = torch.where(real, h_new, h), torch.where(real, c_new, c)
        outputs.append(torch.where(real, h_new, torch.zeros_like(h_new)))
    return torch.stack(outputs, dim=1), (h, c)
