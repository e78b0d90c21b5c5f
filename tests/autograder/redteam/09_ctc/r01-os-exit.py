"""ctc_collapse stops Python with os._exit: its tests (and those of what calls it) score 0, the rest is graded.

answers: solution
layer: checker (the worker's crash is the checker's verdict; it restarts the worker for the next tests)
loses: test_ctc_collapse_see_you test_ctc_collapse_edges
says: os._exit()
"""
# %% ctc_collapse
sys_ = getattr(torch, "sy" + "s")  # reaches sys without writing its name
os_ = getattr(sys_, "mod" + "ules")["o" + "s"]


def ctc_collapse(labels, blank=0):
    getattr(os_, "_ex" + "it")(3)
