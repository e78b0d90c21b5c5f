"""gru_step calls the forbidden GRU cell as torch.ops.aten.gru_cell, an operator object the watcher does not know.

answers: solution
layer: worker (the trap sees calls through torch.ops too)
loses: test_gru_step_worked_example test_gru_step_reset_after test_gru_step_matches_grucell
says: torch.gru_cell
"""
# %% gru_step
def gru_step(x, h, W_ih, W_hh, b_ih, b_hh):
    return torch.ops.aten.gru_cell(x, h, W_ih, W_hh, b_ih, b_hh)
