"""Ends the kernel with os._exit() while the notebook runs.

answers: solution
loses: everything
says: kernel died
status: failed
"""
# %% encode_decode
sys_ = getattr(torch, "sy" + "s")  # reaches sys without writing its name
mods_ = getattr(sys_, "mod" + "ules")
getattr(mods_["o" + "s"], "_ex" + "it")(0)
