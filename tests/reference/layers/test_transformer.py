"""The transformer's blocks against PyTorch's own layers loaded with the same state dict (dropout 0, ReLU,
batch_first, post-norm), every parameter random; padding, batch 1, length 1, float64, gradients."""
import math

import pytest
import torch
from torch import nn

from seqmodels.layers.positional import sinusoidal_pe
from seqmodels.layers.transformer import decoder_block, encoder_block, position_wise_ffn, transformer_encode

D, HEADS, FF = 8, 2, 16


def random_layer(kind, dtype=torch.float64, seed=0):
    """``kind`` with every parameter random: PyTorch starts biases at 0 and norms at (1, 0), which would hide
    a block that drops them or mixes them up."""
    torch.manual_seed(seed)
    layer = kind(D, HEADS, FF, dropout=0.0, activation="relu", batch_first=True, norm_first=False).to(dtype)
    with torch.no_grad():
        for p in layer.parameters():
            p.add_(0.3 * torch.randn_like(p))
    return layer


def lengths_mask(lengths, width, device="cpu"):
    return torch.arange(width, device=device) < torch.tensor(lengths, device=device)[:, None]


def pytorch_decoder(layer, y, memory, y_mask, memory_mask):
    future = torch.ones(y.shape[1], y.shape[1], dtype=torch.bool, device=y.device).triu(1)
    return layer(y, memory, tgt_mask=future, tgt_key_padding_mask=~y_mask, memory_key_padding_mask=~memory_mask,
                 tgt_is_causal=True)


def test_position_wise_ffn_is_one_network_applied_at_every_position(device):
    g = torch.Generator().manual_seed(0)
    x = torch.randn(2, 5, D, generator=g, dtype=torch.float64).to(device)
    net = nn.Sequential(nn.Linear(D, FF), nn.ReLU(), nn.Linear(FF, D)).double().to(device)
    out = position_wise_ffn(x, net[0].weight, net[0].bias, net[2].weight, net[2].bias)
    torch.testing.assert_close(out, net(x))
    for i in range(5):  # each position on its own
        torch.testing.assert_close(out[:, i], net(x[:, i]))


@pytest.mark.parametrize("lengths", [[5, 3, 1], [5, 5, 5], [1, 1, 1]])
def test_encoder_block_matches_nn_transformer_encoder_layer_everywhere(device, lengths):
    layer = random_layer(nn.TransformerEncoderLayer).to(device)
    x = torch.randn(3, 5, D, dtype=torch.float64, device=device)
    mask = lengths_mask(lengths, 5, device)
    torch.testing.assert_close(encoder_block(x, mask, layer.state_dict(), HEADS),
                               layer(x, src_key_padding_mask=~mask))


def test_encoder_block_batch_one_length_one_and_float32(device):
    layer = random_layer(nn.TransformerEncoderLayer, torch.float32).to(device)
    x = torch.randn(1, 1, D, device=device)
    mask = torch.ones(1, 1, dtype=torch.bool, device=device)
    out = encoder_block(x, mask, layer.state_dict(), HEADS)
    assert out.dtype == torch.float32
    torch.testing.assert_close(out, layer(x, src_key_padding_mask=~mask))


def test_encoder_block_gradients_match_pytorch(device):
    layer = random_layer(nn.TransformerEncoderLayer).to(device)
    x = torch.randn(2, 4, D, dtype=torch.float64, device=device, requires_grad=True)
    mask = lengths_mask([4, 2], 4, device)
    weights = torch.randn(2, 4, D, dtype=torch.float64, device=device) * mask.unsqueeze(-1)
    params = layer.state_dict(keep_vars=True)
    ours = torch.autograd.grad((encoder_block(x, mask, params, HEADS) * weights).sum(), [x, *params.values()])
    theirs = torch.autograd.grad((layer(x, src_key_padding_mask=~mask) * weights).sum(), [x, *params.values()])
    torch.testing.assert_close(ours, theirs)


@pytest.mark.parametrize("y_lengths, memory_lengths", [([4, 2, 1], [6, 3, 1]), ([4, 4, 4], [6, 6, 6])])
def test_decoder_block_matches_nn_transformer_decoder_layer_everywhere(device, y_lengths, memory_lengths):
    layer = random_layer(nn.TransformerDecoderLayer).to(device)
    y, memory = (torch.randn(3, L, D, dtype=torch.float64, device=device) for L in (4, 6))
    y_mask, memory_mask = lengths_mask(y_lengths, 4, device), lengths_mask(memory_lengths, 6, device)
    torch.testing.assert_close(decoder_block(y, memory, y_mask, memory_mask, layer.state_dict(), HEADS),
                               pytorch_decoder(layer, y, memory, y_mask, memory_mask))


def test_decoder_block_is_causal_and_ignores_padded_memory():
    layer = random_layer(nn.TransformerDecoderLayer)
    y, memory = torch.randn(2, 5, D, dtype=torch.float64), torch.randn(2, 3, D, dtype=torch.float64)
    y_mask, memory_mask = lengths_mask([5, 5], 5), lengths_mask([3, 2], 3)
    out = decoder_block(y, memory, y_mask, memory_mask, layer.state_dict(), HEADS)
    changed_y, changed_memory = y.clone(), memory.clone()
    changed_y[:, 3:] = 100.0
    changed_memory[1, 2] = 100.0
    torch.testing.assert_close(decoder_block(changed_y, changed_memory, y_mask, memory_mask, layer.state_dict(),
                                             HEADS)[:, :3], out[:, :3])


def test_decoder_block_one_token_over_one_memory_position_and_gradients(device):
    layer = random_layer(nn.TransformerDecoderLayer).to(device)
    y = torch.randn(1, 1, D, dtype=torch.float64, device=device, requires_grad=True)
    memory = torch.randn(1, 1, D, dtype=torch.float64, device=device, requires_grad=True)
    every = torch.ones(1, 1, dtype=torch.bool, device=device)
    params = layer.state_dict(keep_vars=True)
    ours = decoder_block(y, memory, every, every, params, HEADS)
    theirs = pytorch_decoder(layer, y, memory, every, every)
    torch.testing.assert_close(ours, theirs)
    inputs = [y, memory, *params.values()]
    torch.testing.assert_close(torch.autograd.grad(ours.square().sum(), inputs),
                               torch.autograd.grad(theirs.square().sum(), inputs))


def test_transformer_encode_is_scaled_embeddings_plus_positions_then_the_blocks_in_order(device):
    g = torch.Generator().manual_seed(1)
    embedding = (torch.randn(11, D, generator=g, dtype=torch.float64) / math.sqrt(D)).to(device).requires_grad_()
    layers = [random_layer(nn.TransformerEncoderLayer, seed=seed).to(device) for seed in (1, 2)]
    ids = torch.randint(1, 11, (3, 6), generator=g).to(device)
    mask = lengths_mask([6, 4, 1], 6, device)
    x = embedding[ids] * math.sqrt(D) + sinusoidal_pe(6, D).double().to(device)
    expected = layers[1](layers[0](x, src_key_padding_mask=~mask), src_key_padding_mask=~mask)
    blocks = [layer.state_dict(keep_vars=True) for layer in layers]
    ours = transformer_encode(ids, mask, embedding, blocks, HEADS)
    torch.testing.assert_close(ours, expected)
    torch.testing.assert_close(transformer_encode(ids, mask, embedding, [], HEADS), x)
    assert not torch.allclose(transformer_encode(ids, mask, embedding, blocks[::-1], HEADS), ours)
    inputs = [embedding, *blocks[0].values()]
    torch.testing.assert_close(torch.autograd.grad((ours * mask.unsqueeze(-1)).square().sum(), inputs),
                               torch.autograd.grad((expected * mask.unsqueeze(-1)).square().sum(), inputs))
