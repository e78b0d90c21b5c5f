"""An honest gate_update that works in place, on tensors of its own: it keeps every point.

answers: solution
loses: nothing
"""
# %% gate_update
def gate_update(s, x, g):
    out = s.clone()
    out.mul_(1 - g)
    out.add_(g * x)
    return out
