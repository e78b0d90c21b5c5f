"""A wrong onehot that sends an execute_result "2" from inside the test cell (nbgrader's partial credit).

The test cells end with `;`, which silences IPython's display hook, so the answer sends the
message itself; the grader must still drop it.

answers: solution
layer: checker
loses: test_onehot_awesome test_onehot_batched
"""
# %% onehot
sys_ = getattr(torch, "sy" + "s")  # reaches sys without writing its name
hook_ = getattr(sys_, "display" + "hook")


def onehot(ids, V):
    content = {"data": {"text/plain": "2"}, "metadata": {}, "execution_count": 1}
    hook_.session.send(hook_.pub_socket, "execute_result", content, parent=hook_.parent_header)
    return torch.zeros(*ids.shape, V)
