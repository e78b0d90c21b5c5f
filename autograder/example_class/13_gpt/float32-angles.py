"""rope computes the angles m * base^(-2i/d) in float32 and turns float64 inputs with them: the rotation is off by float32's rounding (some 1e-7), which a float64 check must not accept.

answers: solution
loses: test_rope test_rope_gradients
hint: pair i is (x_2i, x_2i+1), turned by positions[l] * base^(-2i/d)
"""
# %% rope
def rope(x, positions, base=10000.0):
    d = x.shape[-1]
    theta = base ** (-torch.arange(0, d, 2, dtype=torch.float32, device=x.device) / d)
    angles = positions.to(torch.float32)[:, None, None] * theta
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    even, odd = x[..., 0::2], x[..., 1::2]
    return torch.stack([even * cos - odd * sin, even * sin + odd * cos], dim=-1).flatten(-2)
