"""discretize computes B_bar as (exp(delta A) - 1) / A * B, which cancels to 0 when delta A is tiny (exp(1e-8) is exactly 1 in float32), instead of with expm1.

answers: solution
loses: test_discretize_tiny_steps
hint: torch.expm1 computes exp(x) - 1 accurately
"""
# %% discretize
def discretize(A, B, delta):
    A_bar = torch.exp(delta[:, None] * A)
    return A_bar, (A_bar - 1) / A * B
