"""rope turns pair i by positions[l] * base^(-i/d) instead of base^(-2i/d): the pairs' frequencies are wrong, and every angle but the first pair's.

answers: solution
loses: test_rope test_rope_gradients
hint: pair i is (x_2i, x_2i+1), turned by positions[l] * base^(-2i/d)
"""
# %% rope
def rope(x, positions, base=10000.0):
    d = x.shape[-1]
    theta = base ** (-torch.arange(0, d // 2, dtype=torch.float64, device=x.device) / d)
    angles = positions.to(torch.float64)[:, None, None] * theta
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    even, odd = x[..., 0::2], x[..., 1::2]
    return torch.stack([even * cos - odd * sin, even * sin + odd * cos], dim=-1).flatten(-2)
