"""max_over_time loops in Python over float() values and rebuilds a new tensor: right numbers in float32, but the
dtype becomes float32 and no gradient flows back to h.

answers: solution
loses: test_max_over_time_gradient
hint: keep the dtype of h
"""
# %% max_over_time
def max_over_time(h, mask):
    B, L, F = h.shape
    result = []
    for b in range(B):
        result.append([max(float(h[b, i, f]) for i in range(L) if mask[b, i]) for f in range(F)])
    return torch.tensor(result)
