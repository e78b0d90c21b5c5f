"""gpt_block against nn.TransformerEncoderLayer(norm_first=True, activation="gelu") with a causal mask and the
same state dict (every parameter random), padded, batch 1, length 1, gradients; attend_with_cache against
recomputing full causal self-attention over the whole prefix at every step."""
import pytest
import torch
from torch import nn

from seqmodels.layers.attention import attention_heads
from seqmodels.layers.gpt import attend_with_cache, gpt_block

D, HEADS, FF = 8, 2, 16


def random_layer(dtype=torch.float64, seed=0):
    torch.manual_seed(seed)
    layer = nn.TransformerEncoderLayer(D, HEADS, FF, dropout=0.0, activation="gelu", batch_first=True,
                                       norm_first=True).to(dtype)
    with torch.no_grad():
        for p in layer.parameters():
            p.add_(0.3 * torch.randn_like(p))
    return layer


def pytorch_gpt_block(layer, x, mask):
    causal = torch.ones(x.shape[1], x.shape[1], dtype=torch.bool, device=x.device).triu(1)
    return layer(x, src_mask=causal, src_key_padding_mask=~mask, is_causal=True)


@pytest.mark.parametrize("B, L", [(1, 1), (2, 5), (3, 9)])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_matches_pytorch_pre_norm_layer_with_a_causal_mask(B, L, dtype, device):
    layer = random_layer(dtype).to(device)
    x = torch.randn(B, L, D, dtype=dtype, device=device)
    mask = torch.ones(B, L, dtype=torch.bool, device=device)
    tolerance = dict(atol=1e-5, rtol=1e-5) if dtype == torch.float32 else {}
    torch.testing.assert_close(gpt_block(x, mask, layer.state_dict(), HEADS), pytorch_gpt_block(layer, x, mask),
                               **tolerance)


def test_padding_never_reaches_a_real_position_and_the_future_never_the_past():
    layer = random_layer()
    x = torch.randn(2, 6, D, dtype=torch.float64)
    mask = torch.arange(6) < torch.tensor([[6], [4]])
    out = gpt_block(x, mask, layer.state_dict(), HEADS)
    torch.testing.assert_close(out[mask], pytorch_gpt_block(layer, x, mask)[mask])
    changed = x.clone()
    changed[1, 4:] = 1e3  # padding
    changed[0, 3:] += 5.0  # the future of positions 0-2
    again = gpt_block(changed, mask, layer.state_dict(), HEADS)
    torch.testing.assert_close(again[1, :4], out[1, :4])
    torch.testing.assert_close(again[0, :3], out[0, :3])


def test_gradients_match_pytorch():
    layer = random_layer()
    x = torch.randn(2, 4, D, dtype=torch.float64, requires_grad=True)
    mask = torch.ones(2, 4, dtype=torch.bool)
    params = layer.state_dict(keep_vars=True)
    ours = torch.autograd.grad(gpt_block(x, mask, params, HEADS).pow(2).sum(), [x, *params.values()])
    theirs = torch.autograd.grad(pytorch_gpt_block(layer, x, mask).pow(2).sum(), [x, *params.values()])
    for a, b in zip(ours, theirs):
        torch.testing.assert_close(a, b)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_the_cache_equals_recomputing_the_whole_prefix(dtype, device):
    attention = nn.MultiheadAttention(D, HEADS, batch_first=True).to(dtype).to(device)
    with torch.no_grad():
        for p in attention.parameters():
            p.add_(0.3 * torch.randn_like(p))
    weights = (attention.in_proj_weight, attention.in_proj_bias, attention.out_proj.weight, attention.out_proj.bias)
    x = torch.randn(3, 7, D, dtype=dtype, device=device)
    cache = None
    tolerance = dict(atol=1e-5, rtol=1e-5) if dtype == torch.float32 else {}
    for t in range(7):
        out, cache = attend_with_cache(x[:, t:t + 1], cache, *weights, HEADS)
        full = attention_heads(x[:, :t + 1], x[:, :t + 1], x[:, :t + 1], *weights, HEADS, causal=True)
        torch.testing.assert_close(out, full[:, -1:], **tolerance)
        assert cache[0].shape == cache[1].shape == (3, HEADS, t + 1, D // HEADS)
    causal = torch.ones(7, 7, dtype=torch.bool, device=device).triu(1)
    torch.testing.assert_close(out, attention(x, x, x, attn_mask=causal, need_weights=False)[0][:, -1:], **tolerance)


def test_the_cache_passes_gradients():
    weights = [torch.randn(3 * D, D, dtype=torch.float64, requires_grad=True), None,
               torch.randn(D, D, dtype=torch.float64, requires_grad=True), None]
    x = torch.randn(1, 3, D, dtype=torch.float64, requires_grad=True)
    _, cache = attend_with_cache(x[:, :1], None, *weights, HEADS)
    out, _ = attend_with_cache(x[:, 1:2], cache, *weights, HEADS)
    full = attention_heads(x[:, :2], x[:, :2], x[:, :2], *weights, HEADS, causal=True)[:, -1:]
    for a, b in zip(torch.autograd.grad(out.sum(), [x, weights[0]]), torch.autograd.grad(full.sum(), [x, weights[0]])):
        torch.testing.assert_close(a, b)
