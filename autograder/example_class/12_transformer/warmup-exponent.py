"""warmup_rate raises warmup to the power -0.5 instead of -1.5 in the linear term, so the first steps get nearly the peak rate (the peak and the decay after it are right).

answers: solution
loses: test_warmup_rate
hint: before the peak the rate rises linearly
"""
# %% warmup_rate
def warmup_rate(step, d_model, warmup):
    return d_model**-0.5 * min(step**-0.5, step * warmup**-0.5)
