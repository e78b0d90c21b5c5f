"""Ends the kernel with os._exit() while the notebook runs.

answers: solution
layer: checker
loses: test_encode_decode_more test_encode_decode_unk
says: did not run: the cell stopped Python (a crash, os._exit() or exhausted memory)
"""
# %% encode_decode
sys_ = getattr(torch, "sy" + "s")  # reaches sys without writing its name
mods_ = getattr(sys_, "mod" + "ules")
getattr(mods_["o" + "s"], "_ex" + "it")(0)
