"""onehot and embed against F.one_hot, F.embedding and Aziz's Tables F.1 and F.2."""
import numpy as np
import pytest
import torch
import torch.nn.functional as F

from seqmodels import embed, onehot

E_F2 = torch.tensor(np.random.RandomState(42).normal(size=(7, 3)))
TABLE_F2_ROUNDED = [[0.5, -0.14, 0.65], [1.52, -0.23, -0.23], [1.58, 0.77, -0.47], [0.54, -0.46, -0.47],
                    [0.24, -1.91, -1.72], [-0.56, -1.01, 0.31], [-0.91, -1.41, 1.47]]


def test_onehot_7_of_awesome():
    assert onehot(torch.tensor(3), 7).tolist() == [0, 0, 0, 1, 0, 0, 0]


@pytest.mark.parametrize("shape", [(), (1,), (5,), (3, 4), (2, 3, 4)])
def test_onehot_matches_f_one_hot(shape, device):
    ids = torch.randint(9, shape, device=device)
    codes = onehot(ids, 9)
    assert codes.dtype == torch.float32 and codes.device == ids.device
    assert torch.equal(codes, F.one_hot(ids, 9).float())


def test_table_f2_as_printed_by_aziz():
    assert np.round(E_F2.numpy(), 2).tolist() == TABLE_F2_ROUNDED
    assert np.round(embed(torch.tensor(6), E_F2).numpy(), 2).tolist() == [-0.91, -1.41, 1.47]  # embed_3(dogs)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("shape", [(), (1,), (1, 1), (4, 6), (2, 3, 5)])
def test_embed_matches_f_embedding_and_onehot_product(shape, dtype, device):
    table = torch.randn(11, 4, dtype=dtype, device=device)
    ids = torch.randint(11, shape, device=device)
    vectors = embed(ids, table)
    assert torch.equal(vectors, F.embedding(ids, table))
    torch.testing.assert_close(vectors, onehot(ids, 11).to(dtype) @ table)  # Xiao Eq. 4.5


def test_embed_gradient_matches_f_embedding():
    ids = torch.tensor([[3, 3, 0], [9, 1, 3]])
    ours = torch.randn(10, 4, dtype=torch.float64, requires_grad=True)
    theirs = ours.detach().clone().requires_grad_(True)
    weights = torch.randn(2, 3, 4, dtype=torch.float64)
    (embed(ids, ours) * weights).sum().backward()
    (F.embedding(ids, theirs) * weights).sum().backward()
    torch.testing.assert_close(ours.grad, theirs.grad)
    assert ours.grad[[2, 4, 5, 6, 7, 8]].abs().sum() == 0  # rows never looked up get no gradient


@pytest.mark.parametrize("bad, error, message", [
    (torch.tensor([1.0]), TypeError, "integer ids"),
    (torch.tensor([True]), TypeError, "integer ids"),
    (torch.tensor([7]), IndexError, r"\[0, 7\)"),
    (torch.tensor([-1]), IndexError, r"\[0, 7\)"),
])
def test_bad_ids_get_a_clear_message(bad, error, message):
    with pytest.raises(error, match=message):
        onehot(bad, 7)
    with pytest.raises(error, match=message):
        embed(bad, E_F2)
