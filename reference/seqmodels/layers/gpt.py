"""The block of a generative transformer language model (Radford et al., 2019, GPT-2) and its key-value
cache, on the weights of ``nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout=0.0,
activation="gelu", batch_first=True, norm_first=True)``.

A GPT block is the decoder's masked self-attention without cross-attention, with the layer norms moved in
front of each sublayer (pre-norm, as GPT-2 does: the residual path from the input to the output is left
untouched, which keeps deep stacks trainable without warm-up) and GELU in the feed-forward network::

    h = x + MHA_causal(LN1(x))                                                   (Eq. 1)
    z = h + GELU(LN2(h) W1ᵀ + b1) W2ᵀ + b2                                       (Eq. 2)

Generating token t+1 needs the queries of position t only, but the keys and values of positions 1..t.
Those of the earlier positions do not change (a causal layer never lets them see later tokens), so a
**key-value cache** keeps them::

    K_{1..t} = [K_{1..t−1}; k_t],  V_{1..t} = [V_{1..t−1}; v_t],  out_t = MHA(q_t, K_{1..t}, V_{1..t})   (Eq. 3)

one new row per step instead of recomputing t rows: O(t·D) work per token instead of O(t·D²) for the
projections.
"""
import math

import torch
from torch.nn import functional as F

from seqmodels.layers.attention import attention_heads, scaled_dot_product_attention
from seqmodels.layers.linear import ffnn, linear
from seqmodels.layers.normalization import layer_norm

Params = dict[str, torch.Tensor]


def exact_gelu(x: torch.Tensor) -> torch.Tensor:
    """GELU(x) = x Φ(x) with the normal distribution's CDF Φ (Hendrycks & Gimpel), as ``activation="gelu"``."""
    return 0.5 * x * (1.0 + torch.erf(x / math.sqrt(2.0)))


def gpt_block(x: torch.Tensor, mask: torch.Tensor, params: Params, num_heads: int) -> torch.Tensor:
    """One pre-norm GPT block (Eqs. 1-2) on ``x [B, L, D]``: causal self-attention over the real tokens
    (``mask [B, L]``), then the GELU feed-forward network, each added to its input."""
    attention = [params[f"self_attn.{w}"] for w in ("in_proj_weight", "in_proj_bias", "out_proj.weight",
                                                     "out_proj.bias")]
    normed = layer_norm(x, params["norm1.weight"], params["norm1.bias"])
    h = x + attention_heads(normed, normed, normed, *attention, num_heads, key_mask=mask, causal=True)
    normed = layer_norm(h, params["norm2.weight"], params["norm2.bias"])
    return h + ffnn(normed, params["linear1.weight"], params["linear1.bias"], params["linear2.weight"],
                    params["linear2.bias"], activation=exact_gelu)


def attend_with_cache(x_t: torch.Tensor, cache: tuple[torch.Tensor, torch.Tensor] | None,
                      in_proj_weight: torch.Tensor, in_proj_bias: torch.Tensor | None, out_proj_weight: torch.Tensor,
                      out_proj_bias: torch.Tensor | None,
                      num_heads: int) -> tuple[torch.Tensor, tuple[torch.Tensor, torch.Tensor]]:
    """Causal self-attention for the newest position ``x_t [B, 1, D]`` (Eq. 3): its query over the cached
    keys and values ``K, V [B, H, t, D/H]`` of the earlier positions (None before the first) and its own.
    Returns ``(out [B, 1, D], (K', V'))`` with the new position's key and value appended."""
    B, _, D = x_t.shape
    biases = in_proj_bias.chunk(3) if in_proj_bias is not None else (None, None, None)
    q, k, v = (linear(x_t, weight, bias).view(B, 1, num_heads, -1).transpose(1, 2)  # [B, H, 1, D/H]
               for weight, bias in zip(in_proj_weight.chunk(3), biases))
    if cache is not None:
        k, v = torch.cat([cache[0], k], dim=2), torch.cat([cache[1], v], dim=2)
    out, _ = scaled_dot_product_attention(q, k, v)  # the newest position may see every cached one
    return linear(out.transpose(1, 2).reshape(B, 1, D), out_proj_weight, out_proj_bias), (k, v)


def fast_causal_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool) -> torch.Tensor:
    """PyTorch's fused attention (FlashAttention or memory-efficient kernels on a GPU) over ``[B, H, L, d]``:
    causal over the same positions, or (``causal=False``) one new query over every cached position."""
    return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
