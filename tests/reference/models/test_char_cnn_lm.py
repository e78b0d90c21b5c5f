"""The char-CNN language model: both paths agree; a word's vector is Eq. 4.87 of its characters alone."""
import torch

from seqmodels.layers.convolution import char_cnn_word_vector
from seqmodels.models.char_cnn_lm import CharCNNLM

CHARS = torch.tensor([[[3, 4, 5, 0], [6, 0, 0, 0], [7, 8, 3, 4]], [[5, 5, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]])
MASK = torch.tensor([[True, True, True], [True, False, False]])


def test_paths_agree(assert_paths_agree):
    torch.manual_seed(0)
    assert_paths_agree(CharCNNLM(10, 20, char_dim=4, filters=3, hidden=5).double(), CHARS, MASK)


def test_each_word_vector_is_the_max_of_tanh_conv_over_its_own_characters():
    torch.manual_seed(0)
    model = CharCNNLM(10, 20, char_dim=4, filters=3, hidden=5)
    vectors = model.word_vectors(CHARS)
    word = CHARS[0, 0, :3]  # "3 4 5" without its padding
    expected = torch.cat([char_cnn_word_vector(word, model.chars.weight, f, b)
                          for f, b in zip(model.spelling.filters, model.spelling.biases)])
    torch.testing.assert_close(vectors[0, 0], expected)


def test_a_few_steps_lower_the_loss():
    torch.manual_seed(0)
    model = CharCNNLM(10, 20, char_dim=4, filters=3, hidden=8)
    targets = torch.tensor([[4, 5, 6], [7, 0, 0]])
    optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
    losses = []
    for _ in range(20):
        loss = model.loss(CHARS, targets, MASK)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    assert losses[-1] < 0.5 * losses[0]
