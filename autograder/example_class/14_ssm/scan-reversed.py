"""linear_scan composes the pairs the wrong way round, (a, b) o (a_before, b_before): the earlier step's decay is applied to the newer input instead of the other way.

answers: solution
loses: test_linear_scan_example test_linear_scan_loop test_linear_scan_stable test_selective_scan test_selective_scan_more
hint: the earlier step on the left
hint: fix linear_scan first
"""
# %% linear_scan
def linear_scan(a, b):
    L, offset = a.shape[1], 1
    while offset < L:
        a_before = torch.cat([torch.ones_like(a[:, :offset]), a[:, :-offset]], dim=1)
        b_before = torch.cat([torch.zeros_like(b[:, :offset]), b[:, :-offset]], dim=1)
        a, b = a_before * a, a_before * b + b_before
        offset *= 2
    return b
