"""2-D convolution against Xiao's worked feature maps (Eqs. 4.34, 4.41, 4.42) and F.conv2d; 1-D convolution against F.conv1d; max over time against a loop; receptive fields against Fig. 4.8;
the char-CNN word vector against F.embedding + F.conv1d + tanh + max."""
import pytest
import torch
from torch.nn import functional as F

from seqmodels.layers.convolution import char_cnn_word_vector, conv1d_same, conv2d, max_over_time, receptive_field


def test_conv2d_reproduces_the_worked_feature_maps():
    W = torch.tensor([[2.0, 0.0], [2.0, 2.0]])  # Eq. 4.32
    A = torch.tensor([[1.0, 9.0, 7.0], [3.0, 1.0, 2.0], [0.0, 1.0, -1.0]])  # Eq. 4.31
    torch.testing.assert_close(conv2d(A, W), torch.tensor([[10.0, 24.0], [8.0, 2.0]]))  # Eq. 4.34
    small = torch.tensor([[1.0, 9.0], [7.0, 3.0]])  # Eq. 4.39, padded as in Eq. 4.40
    torch.testing.assert_close(conv2d(small, W, padding=1),
                               torch.tensor([[2.0, 20.0, 18.0], [14.0, 22.0, 24.0], [0.0, 14.0, 6.0]]))  # Eq. 4.41
    torch.testing.assert_close(conv2d(small, W, stride=2, padding=1), torch.tensor([[2.0, 18.0], [0.0, 6.0]]))  # 4.42


@pytest.mark.parametrize("shape, kernel, stride, padding",
                         [((5, 7), (2, 3), 1, 0), ((6, 6), (3, 3), 2, 1), ((4, 9), (1, 1), 3, 2), ((3, 3), (3, 3), 1, 0),
                          ((1, 1), (1, 1), 1, 0), ((7, 5), (4, 2), 3, 0)])
def test_conv2d_matches_pytorch(shape, kernel, stride, padding):
    g = torch.Generator().manual_seed(sum(shape))
    A = torch.randn(*shape, dtype=torch.float64, generator=g, requires_grad=True)
    K = torch.randn(*kernel, dtype=torch.float64, generator=g, requires_grad=True)
    got = conv2d(A, K, stride=stride, padding=padding)
    expected = F.conv2d(A[None, None], K[None, None], stride=stride, padding=padding)[0, 0]
    torch.testing.assert_close(got, expected)
    weights = torch.randn(got.shape, dtype=torch.float64, generator=g)
    for a, b in zip(torch.autograd.grad((got * weights).sum(), (A, K)),
                    torch.autograd.grad((expected * weights).sum(), (A, K))):
        torch.testing.assert_close(a, b)


def test_conv2d_rejects_a_filter_that_does_not_fit():
    with pytest.raises(ValueError, match="does not fit"):
        conv2d(torch.zeros(2, 2), torch.zeros(3, 3))
    with pytest.raises(ValueError, match="stride"):
        conv2d(torch.zeros(2, 2), torch.zeros(1, 1), stride=0)


def test_conv1d_same_matches_pytorch():
    g = torch.Generator().manual_seed(0)
    x, filters, bias = (torch.randn(*s, dtype=torch.float64, generator=g) for s in ((2, 7, 4), (5, 3, 4), (5,)))
    expected = F.conv1d(x.transpose(1, 2), filters.transpose(1, 2), bias, padding=1).transpose(1, 2)
    torch.testing.assert_close(conv1d_same(x, filters, bias), expected)
    with pytest.raises(ValueError, match="odd"):
        conv1d_same(x, torch.zeros(5, 2, 4), bias)


def test_max_over_time_ignores_padding():
    h = torch.tensor([[[1.0], [5.0], [9.0]], [[-3.0], [-1.0], [100.0]]])
    mask = torch.tensor([[True, True, True], [True, True, False]])
    torch.testing.assert_close(max_over_time(h, mask), torch.tensor([[9.0], [-1.0]]))


def test_receptive_field_of_figure_4_8():
    assert receptive_field(3, 3) == 7 and receptive_field(1, 5) == 5
    assert receptive_field(2, 3, stride=2) == 7  # layer-1 outputs are 2 apart: 3 of them span 2 * 2 + 3 inputs


@pytest.mark.parametrize("r", [1, 3, 5])
def test_char_cnn_word_vector_is_eq_4_87_with_pytorch_layers(r):
    g = torch.Generator().manual_seed(r)
    E_char, filters, bias = (torch.randn(*s, dtype=torch.float64, generator=g) for s in ((9, 4), (6, r, 4), (6,)))
    for word in ([3], [1, 2, 3, 4, 5, 6, 7], [8, 8]):
        ids = torch.tensor(word)
        conv = F.conv1d(F.embedding(ids, E_char).T.unsqueeze(0), filters.transpose(1, 2), bias, padding=(r - 1) // 2)
        torch.testing.assert_close(char_cnn_word_vector(ids, E_char, filters, bias), torch.tanh(conv)[0].amax(dim=1))
