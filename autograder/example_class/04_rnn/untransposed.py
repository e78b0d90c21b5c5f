"""rnn_step multiplies by R instead of R^T (right only for symmetric R, so every encoder test fails too); lm_pairs
appends <EOS> to the caller's list: the grader keeps the test's own list as it was (an answer's in-place change
never reaches the oracles) and fails every call that changed its list, and a tuple has no append.

answers: solution
loses: test_rnn_step_example test_rnn_step_batched test_rnn_encode_example test_rnn_encode_padding test_rnn_encode_gradients test_lm_pairs_example test_lm_pairs_edges
hint: multiply by the TRANSPOSED weights
hint: builds on your rnn_step
hint: do not change what it is given in place
"""
# %% rnn_step
def rnn_step(u_prev, e, R, W, b=None):
    pre = u_prev @ R + e @ W.T  # R instead of R.T
    if b is not None:
        pre = pre + b
    return torch.tanh(pre)


# %% lm_pairs
def lm_pairs(ids, bos, eos):
    targets = ids
    targets.append(eos)  # modifies the caller's list
    return [bos] + targets[:-1], targets
