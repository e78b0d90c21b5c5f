"""selective_scan applies A_bar after adding the input, h_t = A_bar_t (h_(t-1) + B_bar_t u_t), so each new input is decayed once before it is read.

answers: solution
loses: test_selective_scan test_selective_scan_more
hint: enter the recurrence before the input is added
"""
# %% selective_scan
def selective_scan(u, delta, A, B, C, D_skip):
    batch, L, D = u.shape
    N = A.shape[1]
    A_bar = torch.exp(delta[..., None] * A)
    Bu = A_bar * (delta * u)[..., None] * B[:, :, None, :]
    h = linear_scan(A_bar.reshape(batch, L, D * N), Bu.reshape(batch, L, D * N)).reshape(batch, L, D, N)
    return (h * C[:, :, None, :]).sum(-1) + D_skip * u
