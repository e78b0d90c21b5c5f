"""linear_scan uses the closed form h_t = P_t * sum_s b_s / P_s with P_t = cumprod(a): right for short sequences, but P_t underflows to 0 for decays of 0.5 over 4,096 steps in float32 and the division gives inf and nan.

answers: solution
loses: test_linear_scan_stable
hint: dividing by a cumulative product (cumprod and divide) gives inf and nan
"""
# %% linear_scan
def linear_scan(a, b):
    P = torch.cumprod(a, dim=1)
    return P * torch.cumsum(b / P, dim=1)
