"""discretize multiplies delta [D] by A [D, N] directly, which broadcasts delta over the channels (delta[n] for state n) instead of giving channel d its own step delta[d] for all its N states; with D != N it cannot even broadcast.

answers: solution
loses: test_discretize test_discretize_tiny_steps
hint: delta[d] is the step of channel d, the same for its N states
"""
# %% discretize
def discretize(A, B, delta):
    delta_A = delta * A
    return torch.exp(delta_A), torch.expm1(delta_A) / A * B
