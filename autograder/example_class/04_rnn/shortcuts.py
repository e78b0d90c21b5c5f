"""Forbidden shortcuts: nn.RNNCell's function in rnn_step, F.cross_entropy in sequence_nll (perplexity calls it
too), torch.softmax in temperature_softmax, torch.nn.utils.clip_grad_norm_ in clip_grad_norm.

answers: solution
loses: test_rnn_step_example test_rnn_step_batched test_rnn_encode_example test_rnn_encode_padding test_rnn_encode_gradients test_sequence_nll_example test_sequence_nll_padding test_sequence_nll_stable test_perplexity test_temperature_softmax_example test_temperature_softmax_stable test_clip_grad_norm_example test_clip_grad_norm_global
hint: builds on your rnn_step
hint: builds on your sequence_nll
"""
# %% rnn_step
def rnn_step(u_prev, e, R, W, b=None):
    zeros = torch.zeros(R.shape[0], dtype=e.dtype, device=e.device)
    return torch.rnn_tanh_cell(e, u_prev, W, R, zeros if b is None else b, zeros)


# %% sequence_nll
import torch.nn.functional as F


def sequence_nll(logits, targets, mask):
    return F.cross_entropy(logits[mask], targets[mask])


# %% clip_grad_norm
def clip_grad_norm(grads, tau):
    params = [torch.zeros_like(g, requires_grad=True) for g in grads]
    for p, g in zip(params, grads):
        p.grad = g.clone()
    torch.nn.utils.clip_grad_norm_(params, tau)
    return [p.grad for p in params]


# %% temperature_softmax
def temperature_softmax(logits, temperature):
    return torch.softmax(logits / temperature, dim=-1)
