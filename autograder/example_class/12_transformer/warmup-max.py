"""warmup_rate takes the larger of the two terms (max), so the rate falls for the first steps and then grows without bound (both terms agree at the peak).

answers: solution
loses: test_warmup_rate
hint: take the smaller of the two terms
"""
# %% warmup_rate
def warmup_rate(step, d_model, warmup):
    return d_model**-0.5 * max(step**-0.5, step * warmup**-1.5)
