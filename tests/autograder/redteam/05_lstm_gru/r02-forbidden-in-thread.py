"""lstm_step calls the forbidden torch.lstm_cell inside a worker thread.

answers: solution
layer: worker (grading.student.watch follows threads the answer starts)
loses: test_lstm_step_worked_example test_lstm_step_matches_lstmcell test_lstm_step_large_inputs test_lstm_encode_full test_lstm_encode_padding test_lstm_encode_edges
says: torch.lstm_cell
"""
# %% lstm_step
sys_ = getattr(torch, "sy" + "s")  # reaches sys without writing its name
threading_ = getattr(sys_, "mod" + "ules")["thread" + "ing"]


def lstm_step(x, h, c, W_ih, W_hh, b_ih, b_hh):
    out = []
    worker = threading_.Thread(target=lambda: out.append(torch.lstm_cell(x, (h, c), W_ih, W_hh, b_ih, b_hh)))
    worker.start()
    worker.join()
    return out[0]
