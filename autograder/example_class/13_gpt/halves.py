"""rope rotates feature i with feature i + d/2 (the two halves, as some libraries lay RoPE out) instead of the pairs (2i, 2i+1) of Su et al.'s Eq. 34.

answers: solution
loses: test_rope test_rope_gradients
hint: pair i is (x_2i, x_2i+1), turned by positions[l] * base^(-2i/d)
hint: not the two halves (0, d/2), (1, d/2 + 1)
"""
# %% rope
def rope(x, positions, base=10000.0):
    d = x.shape[-1]
    theta = base ** (-torch.arange(0, d, 2, dtype=torch.float64, device=x.device) / d)
    angles = positions.to(torch.float64)[:, None, None] * theta
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    first, second = x[..., : d // 2], x[..., d // 2 :]
    return torch.cat([first * cos - second * sin, first * sin + second * cos], dim=-1)
