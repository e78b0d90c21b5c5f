"""rnn_encode ignores the mask entirely (padded positions output states, last is the final position's state);
sequence_nll averages over all positions, padding included; lm_pairs forgets <EOS>.

answers: solution
loses: test_rnn_encode_example test_rnn_encode_padding test_rnn_encode_gradients test_lm_pairs_example test_lm_pairs_edges test_sequence_nll_example test_sequence_nll_padding test_sequence_nll_stable test_perplexity
hint: inputs = [bos] + ids, targets = ids + [eos]
hint: an empty sentence still predicts <EOS>
hint: a padded position outputs 0
hint: keep the previous state
hint: padding must not influence anything
hint: N = number of real tokens (3 here)
hint: sum the 7 real positions only
hint: builds on your sequence_nll
"""
# %% rnn_encode
def rnn_encode(e, mask, u0, R, W, b=None):
    u = u0.to(e.dtype).expand(e.shape[0], -1)
    states = []
    for i in range(e.shape[1]):
        u = rnn_step(u, e[:, i], R, W, b)
        states.append(u)
    return torch.stack(states, dim=1), u


# %% lm_pairs
def lm_pairs(ids, bos, eos):
    return [bos, *ids[:-1]], list(ids)  # off by one: no <EOS>, the last token never predicted


# %% sequence_nll
def sequence_nll(logits, targets, mask):
    log_z = torch.logsumexp(logits, dim=-1)
    gold = logits.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    return (log_z - gold).mean()  # padding counted
