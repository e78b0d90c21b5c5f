"""A wrong rnn_step, with IPython, sys and threading told to swallow every exception.

answers: solution
layer: checker (a failed check is a verdict in the checker; no exception hook of the student's is there)
loses: test_rnn_step_example test_rnn_step_batched test_rnn_encode_example test_rnn_encode_padding test_rnn_encode_gradients
"""
# %% rnn_step
sys_ = getattr(torch, "sy" + "s")  # reaches sys without writing its name
mods_ = getattr(sys_, "mod" + "ules")
set_ = getattr(mods_["built" + "ins"], "set" + "attr")
set_(sys_, "excepthook", lambda *args: None)
set_(mods_["threading"], "excepthook", lambda *args: None)
try:
    shell_ = getattr(mods_["IPy" + "thon"], "get_" + "ipython")()
    shell_.set_custom_exc((BaseException,), lambda *args, **kwargs: None)
except Exception:  # noqa: BLE001 - no shell here
    pass


def rnn_step(u_prev, e, R, W, b=None):
    return torch.zeros_like(u_prev)
