"""The transformer's blocks (course notes §4; Vaswani et al., 2017), on the weights of PyTorch's layers.

A block's ``params`` is the ``state_dict()`` of ``nn.TransformerEncoderLayer`` or ``nn.TransformerDecoderLayer``
built with ``dropout=0.0, activation="relu", batch_first=True, norm_first=False``: the attentions'
``self_attn.*`` (and, in a decoder, ``multihead_attn.*``), the feed-forward ``linear1.*`` and ``linear2.*``,
and the layer norms ``norm1.*``, ``norm2.*`` (and ``norm3.*``). In formulas (post-norm, as in the sources)::

    FFN(x_i) = ReLU(x_i W1ᵀ + b1) W2ᵀ + b2                                   (Eq. 1)
    MHA(q, k, v) = [head_1; ...; head_H] W_oᵀ + b_o                            (Eq. 2)
    encoder:  h = LayerNorm(x + MHA(x, x, x)),  z = LayerNorm(h + FFN(h))      (Eq. 3)
    decoder:  a = LayerNorm(y + MHA_causal(y, y, y)),  c = LayerNorm(a + MHA(a, m, m)),
              z = LayerNorm(c + FFN(c))                                         (Eq. 4)
    inputs:   x_i = √D E[t_i] + PE(i)                                           (Eq. 5)
    encoder stack: z⁰ = x,  zⁿ = Block_n(zⁿ⁻¹), n = 1..N                        (Eq. 6)

Padded positions are computed like any other query (as PyTorch does), but as keys they get no weight,
so nothing they hold reaches a real position.
"""
import math

import torch

from seqmodels.layers.attention import attention_heads
from seqmodels.layers.embedding import embed
from seqmodels.layers.linear import ffnn
from seqmodels.layers.normalization import add_and_norm
from seqmodels.layers.positional import add_positions, sinusoidal_pe
from seqmodels.layers.stacking import stack

Params = dict[str, torch.Tensor]


def position_wise_ffn(x: torch.Tensor, W1: torch.Tensor, b1: torch.Tensor, W2: torch.Tensor,
                      b2: torch.Tensor) -> torch.Tensor:
    """ReLU(x W1ᵀ + b1) W2ᵀ + b2 at every position of ``x [B, L, D]`` on its own (Eq. 1), with ``W1 [F, D]``,
    ``W2 [D, F]``: chapter 02's two-layer network, shared by all positions."""
    return ffnn(x, W1, b1, W2, b2, activation=torch.relu)


def _attend(params: Params, name: str, q: torch.Tensor, kv: torch.Tensor, num_heads: int,
            key_mask: torch.Tensor, causal: bool = False) -> torch.Tensor:
    """The layer's ``nn.MultiheadAttention`` called ``name`` (its weights in ``params``), queries ``q`` over ``kv``."""
    weights = [params[f"{name}.{w}"] for w in ("in_proj_weight", "in_proj_bias", "out_proj.weight", "out_proj.bias")]
    return attention_heads(q, kv, kv, *weights, num_heads, key_mask=key_mask, causal=causal)


def _add_and_norm(x: torch.Tensor, sublayer_out: torch.Tensor, params: Params, norm: str) -> torch.Tensor:
    return add_and_norm(x, sublayer_out, params[f"{norm}.weight"], params[f"{norm}.bias"])


def _feed_forward(x: torch.Tensor, params: Params) -> torch.Tensor:
    return position_wise_ffn(x, params["linear1.weight"], params["linear1.bias"], params["linear2.weight"],
                             params["linear2.bias"])


def encoder_block(x: torch.Tensor, mask: torch.Tensor, params: Params, num_heads: int) -> torch.Tensor:
    """One encoder block (Eq. 3) on ``x [B, L, D]``: self-attention over the real tokens (``mask [B, L]``),
    add & norm, the position-wise FFN, add & norm; ``params`` as ``nn.TransformerEncoderLayer``'s."""
    h = _add_and_norm(x, _attend(params, "self_attn", x, x, num_heads, mask), params, "norm1")
    return _add_and_norm(h, _feed_forward(h, params), params, "norm2")


def decoder_block(y: torch.Tensor, memory: torch.Tensor, y_mask: torch.Tensor, memory_mask: torch.Tensor,
                  params: Params, num_heads: int) -> torch.Tensor:
    """One decoder block (Eq. 4) on ``y [B, Ly, D]``: causal self-attention, add & norm, cross-attention from
    the result over the encoder's output ``memory [B, Lx, D]`` (padded positions of ``memory_mask`` get no
    weight), add & norm, the FFN, add & norm; ``params`` as ``nn.TransformerDecoderLayer``'s."""
    a = _add_and_norm(y, _attend(params, "self_attn", y, y, num_heads, y_mask, causal=True), params, "norm1")
    c = _add_and_norm(a, _attend(params, "multihead_attn", a, memory, num_heads, memory_mask), params, "norm2")
    return _add_and_norm(c, _feed_forward(c, params), params, "norm3")


def transformer_inputs(ids: torch.Tensor, embedding: torch.Tensor) -> torch.Tensor:
    """√D E[t_i] + PE(i) for the ids ``[B, L]`` (Eq. 5): the embeddings ``[V, D]`` scaled so that they are not
    drowned by chapter 08's sinusoidal encodings (whose entries lie in [-1, 1]) when, as usual, the table is
    initialised with entries of size about 1/√D. The encodings come from ``sinusoidal_pe`` and are added
    in the embeddings' dtype."""
    D = embedding.shape[1]
    return add_positions(embed(ids, embedding) * math.sqrt(D), sinusoidal_pe(ids.shape[1], D))


def transformer_encode(ids: torch.Tensor, mask: torch.Tensor, embedding: torch.Tensor, blocks: list[Params],
                       num_heads: int) -> torch.Tensor:
    """The encoder (Eq. 6): the inputs of Eq. 5, then every block of ``blocks`` (one ``params`` each) in order,
    stacked without extra residuals (each block has its own): ``[B, L, D]``."""
    layers = [lambda h, params=params: encoder_block(h, mask, params, num_heads) for params in blocks]
    return stack(transformer_inputs(ids, embedding), layers, residual=False)
