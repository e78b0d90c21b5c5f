"""An honest, correct submission graded in the same batch, with its own linear_scan (pairs of steps composed, the half-length scan, then the even positions: O(log L) calls by recursion).

answers: solution
loses: nothing
"""
# %% linear_scan
def linear_scan(a, b):
    L = a.shape[1]
    if L == 1:
        return b
    even = L - L % 2
    h_odd = linear_scan(a[:, 1:even:2] * a[:, 0:even:2], a[:, 1:even:2] * b[:, 0:even:2] + b[:, 1:even:2])
    h_before = torch.cat([torch.zeros_like(b[:, :1]), h_odd], dim=1)[:, : (L + 1) // 2]
    h_even = a[:, 0::2] * h_before + b[:, 0::2]
    h = torch.stack([h_even[:, : h_odd.shape[1]], h_odd], dim=2).flatten(1, 2)
    return torch.cat([h, h_even[:, h_odd.shape[1] :]], dim=1)
