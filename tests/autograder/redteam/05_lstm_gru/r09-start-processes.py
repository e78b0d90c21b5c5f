"""count_parameters answers right only where it could start 20 processes (through libc's fork).

answers: solution
layer: sandbox (no answer starts a process: a seccomp filter ends the worker that tries)
loses: test_count_parameters_rnn test_count_parameters_gated test_count_parameters_sizes
says: start another process
"""
# %% count_parameters
sys_ = getattr(torch, "sy" + "s")  # reaches sys without writing its name
api_ = getattr(getattr(sys_, "mod" + "ules")["c" + "types"], "python" + "api")


def count_parameters(kind, input_size, hidden_size):
    for _ in range(20):
        child = api_.fork()
        if child == 0:
            api_.pause()  # waits for ever (and takes no CPU time)
        if child < 0:
            return 0
    H = hidden_size
    return {"rnn": 1, "lstm": 4, "gru": 3}[kind] * (H * input_size + H * H + 2 * H)
