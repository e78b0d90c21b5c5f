"""A wrong crf_score, with IPython, sys and threading told to swallow every exception.

answers: solution
layer: checker (a failed check is a verdict in the checker; no exception hook of the student's is there)
loses: test_crf_nll_batch test_crf_nll_example test_crf_score_edges test_crf_score_example
"""
# %% crf_score
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


def crf_score(emissions, tags, transitions, start, end):
    return emissions.sum() * 0
