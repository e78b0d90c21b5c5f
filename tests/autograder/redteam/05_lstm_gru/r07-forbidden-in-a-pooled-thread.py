"""lstm_step runs the forbidden torch.lstm_cell in a pooled thread that gate_update's first call started.

answers: solution
layer: worker (the trap sees the function now graded in every thread; each test cell has a fresh worker)
loses: test_lstm_step_worked_example test_lstm_step_matches_lstmcell test_lstm_step_large_inputs test_lstm_encode_full test_lstm_encode_padding test_lstm_encode_edges
says: torch.lstm_cell
"""
# %% gate_update
from concurrent.futures import ThreadPoolExecutor

POOL_ = ThreadPoolExecutor(1)


def gate_update(s, x, g):
    return POOL_.submit(lambda: g * x + (1 - g) * s).result()


# %% lstm_step
def lstm_step(x, h, c, W_ih, W_hh, b_ih, b_hh):
    POOL_.submit(lambda: None).result()  # the pool's thread, started by gate_update's call where it runs first
    return POOL_.submit(torch.lstm_cell, x, (h, c), W_ih, W_hh, b_ih, b_hh).result()
