"""A wrong gate_update that fills its arguments with nan in place, and returns nan, where the visible tests never look.

answers: solution
layer: checker (the test's arguments stay as the test made them: the answer's in-place changes are not made there, so the expected values are computed from pristine inputs)
loses: test_gate_update_hard test_gate_update_soft
"""
# %% gate_update
def gate_update(s, x, g):
    if s.numel() <= 6:  # the visible tests' small inputs: the right answer
        return g * x + (1 - g) * s
    for argument in (s, x, g):
        argument.detach().fill_(float("nan"))  # the test's oracle then reads nan too
    return s.detach() * g.detach()
