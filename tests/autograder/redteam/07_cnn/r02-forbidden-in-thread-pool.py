"""conv1d_same calls the forbidden F.conv1d in a thread pool.

answers: solution
layer: worker (grading.student.watch follows threads the answer starts)
loses: test_conv1d_same_table test_conv1d_same_widths test_conv1d_same_gradient test_char_cnn_worked test_char_cnn_edges test_char_cnn_gradient
says: torch.nn.functional.conv1d
"""
# %% conv1d_same
sys_ = getattr(torch, "sy" + "s")  # reaches sys without writing its name
import_ = getattr(getattr(sys_, "mod" + "ules")["built" + "ins"], "_" + "_import__")
pool_ = import_("concurrent.futures", fromlist=["ThreadPoolExecutor"]).ThreadPoolExecutor(1)


def conv1d_same(x, filters, bias):
    width = filters.shape[-1]
    return pool_.submit(torch.nn.functional.conv1d, x, filters, bias, padding=width // 2).result()
