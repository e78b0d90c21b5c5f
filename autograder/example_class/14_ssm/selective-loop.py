"""selective_scan steps through time in a Python loop instead of handing all steps to linear_scan: right values, but its calls grow with L.

answers: solution
loses: test_selective_scan_calls
hint: compute A_bar and B_bar u for all steps at once and hand them to linear_scan
"""
# %% selective_scan
def selective_scan(u, delta, A, B, C, D_skip):
    h, outputs = u.new_zeros(u.shape[0], *A.shape), []
    for t in range(u.shape[1]):
        h = torch.exp(delta[:, t, :, None] * A) * h + (delta[:, t] * u[:, t])[..., None] * B[:, t, None, :]
        outputs.append((h * C[:, t, None, :]).sum(-1) + D_skip * u[:, t])
    return torch.stack(outputs, dim=1)
