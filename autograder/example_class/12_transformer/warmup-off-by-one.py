"""warmup_rate counts steps from 0 (step + 1 where the formula has step), so every rate is that of the next step: the peak comes one step early and is slightly lower.

answers: solution
loses: test_warmup_rate
hint: use step as it is given
"""
# %% warmup_rate
def warmup_rate(step, d_model, warmup):
    step = step + 1  # as if the first step were step 0
    return d_model**-0.5 * min(step**-0.5, step * warmup**-1.5)
