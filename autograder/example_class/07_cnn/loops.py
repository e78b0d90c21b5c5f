"""Alternative correct answers: conv2d as a double loop over output positions, conv1d_same with Tensor.unfold
(allowed there), max_over_time with torch.where, a closed-form receptive field, char_cnn_word_vector with F.embedding.

answers: solution
loses: nothing
"""
# %% conv2d
def conv2d(A, K, stride=1, padding=0):
    H, W = A.shape
    padded = torch.zeros(H + 2 * padding, W + 2 * padding, dtype=A.dtype, device=A.device)
    padded[padding : padding + H, padding : padding + W] = A
    kh, kw = K.shape
    rows = []
    for i in range(0, padded.shape[0] - kh + 1, stride):
        rows.append(torch.stack([(padded[i : i + kh, j : j + kw] * K).sum()
                                 for j in range(0, padded.shape[1] - kw + 1, stride)]))
    return torch.stack(rows)


# %% conv1d_same
def conv1d_same(x, filters, bias):
    r = filters.shape[1]
    zeros = x.new_zeros(x.shape[0], (r - 1) // 2, x.shape[2])
    windows = torch.cat([zeros, x, zeros], dim=1).unfold(1, r, 1)  # [B, L, D, r]
    return torch.einsum("bldr,frd->blf", windows, filters) + bias


# %% max_over_time
def max_over_time(h, mask):
    lowest = torch.tensor(float("-inf"), dtype=h.dtype, device=h.device)
    return torch.where(mask[:, :, None], h, lowest).max(dim=1).values


# %% receptive_field
def receptive_field(num_layers, r, stride=1):
    if stride == 1:
        return 1 + num_layers * (r - 1)
    return 1 + (r - 1) * (stride**num_layers - 1) // (stride - 1)


# %% char_cnn_word_vector
import torch.nn.functional as F


def char_cnn_word_vector(char_ids, E_char, filters, bias):
    e = F.embedding(char_ids, E_char)[None]
    return torch.tanh(conv1d_same(e, filters, bias)).squeeze(0).max(dim=0).values
