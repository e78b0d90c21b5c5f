"""max_over_time fills padding with 0 (wrong when every real value is negative); char_cnn_word_vector forgets the
tanh and pools the raw convolution.

answers: solution
loses: test_max_over_time_padding test_max_over_time_gradient test_char_cnn_worked test_char_cnn_edges test_char_cnn_gradient
hint: padded positions must not win the max
hint: apply tanh to the convolution's features
"""
# %% max_over_time
def max_over_time(h, mask):
    return (h * mask[:, :, None]).amax(dim=1)


# %% char_cnn_word_vector
def char_cnn_word_vector(char_ids, E_char, filters, bias):
    return conv1d_same(E_char[char_ids][None], filters, bias)[0].amax(dim=0)
