"""gate_update calls the forbidden torch.lerp from C: through map(), which raises no profile event.

answers: solution
layer: worker (a TorchFunctionMode in the worker sees every torch call, whatever called it)
loses: test_gate_update_hard test_gate_update_soft
says: torch.lerp
"""
# %% gate_update
def gate_update(s, x, g):
    return next(map(torch.lerp, [s], [x], [g]))
