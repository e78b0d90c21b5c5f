"""warmup_rate leaves out the factor d_model**-0.5, so every rate is sqrt(d_model) times too large.

answers: solution
loses: test_warmup_rate
hint: scale by d_model**-0.5
"""
# %% warmup_rate
def warmup_rate(step, d_model, warmup):
    return min(step**-0.5, step * warmup**-1.5)
