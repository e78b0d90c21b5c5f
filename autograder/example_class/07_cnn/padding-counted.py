"""max_over_time ignores the mask, so padding can win the max; char_cnn_word_vector averages over the characters
instead of taking the max (Eq. 4.87 pools with the max, as Kim et al. do).

answers: solution
loses: test_max_over_time_padding test_max_over_time_gradient test_char_cnn_worked test_char_cnn_edges test_char_cnn_gradient
hint: padded positions must not win the max
hint: not the mean
"""
# %% max_over_time
def max_over_time(h, mask):
    return h.amax(dim=1)


# %% char_cnn_word_vector
def char_cnn_word_vector(char_ids, E_char, filters, bias):
    return torch.tanh(conv1d_same(E_char[char_ids][None], filters, bias))[0].mean(dim=0)
