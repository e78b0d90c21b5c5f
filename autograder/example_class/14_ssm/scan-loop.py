"""linear_scan runs the recurrence with a Python loop over t: right values, but L sequential steps, so its calls grow with L (and selective_scan, which runs it, inherits that).

answers: solution
loses: test_linear_scan_calls test_selective_scan_calls
hint: log2(L) rounds, not L steps
hint: fix linear_scan first
"""
# %% linear_scan
def linear_scan(a, b):
    h, states = torch.zeros_like(b[:, 0]), []
    for t in range(a.shape[1]):
        h = a[:, t] * h + b[:, t]
        states.append(h)
    return torch.stack(states, dim=1)
