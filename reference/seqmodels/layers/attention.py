"""Attention (course notes §4): score each key against a query, normalise the scores over the keys
the query may see, and average the values by them.

Additive (Bahdanau et al., 2015):  a_j = v · tanh(W_q q + W_k k_j),  context = Σ_j softmax(a)_j k_j
Scaled dot product (Vaswani et al., 2017):  softmax(Q Kᵀ / √d) V, and its multi-head form: self-attention
without biases (chapter 11) and, with biases and separate query and key/value inputs, the transformer's
(chapter 12), both with the weights of ``nn.MultiheadAttention``.
"""
import math

import torch

from seqmodels.layers.linear import linear


def additive_attention(query: torch.Tensor, keys: torch.Tensor, mask: torch.Tensor, W_q: torch.Tensor,
                       W_k: torch.Tensor, v: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """query [B, Hd], keys [B, L, He], mask [B, L] (True on real keys), W_q [A, Hd], W_k [A, He], v [A]
    -> (context [B, He], weights [B, L]); padded keys get weight exactly 0.

    Several queries per row (query [B, T, Hd], every decoder step at once) give [B, T, He] and [B, T, L]:
    the keys are projected once and broadcast over the queries.
    """
    extra = (1,) * (query.dim() - 2)  # the queries' extra axes, between B and L
    B, L, _ = keys.shape
    projected_keys = (keys @ W_k.T).view(B, *extra, L, -1)
    hidden = torch.tanh((query @ W_q.T).unsqueeze(-2) + projected_keys)  # [B, ..., L, A]
    scores = (hidden @ v).masked_fill(~mask.to(torch.bool).view(B, *extra, L), float("-inf"))  # [B, ..., L]
    weights = torch.softmax(scores, dim=-1)
    return (weights.unsqueeze(-1) * keys.view(B, *extra, L, -1)).sum(dim=-2), weights


def scaled_dot_product_attention(Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor, mask: torch.Tensor | None = None,
                                 causal: bool = False) -> tuple[torch.Tensor, torch.Tensor]:
    """Q [B, Lq, d], K [B, Lk, d], V [B, Lk, dv] -> (out [B, Lq, dv], weights [B, Lq, Lk]).

    ``mask``: [B, Lk] (True on real keys) or [B, Lq, Lk] (True where query i may see key j; any axis of
    size 1 is broadcast). A 2-D mask when B = Lq > 1 is refused (ValueError): it could as well be one mask
    per query, [Lq, Lk], which it would silently be misread for; pass [B, 1, Lk] or [B, Lq, Lk] instead.
    ``causal``: query i sees keys j <= i only. A query that may see no key gets weights 0 and output 0.
    """
    scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
    allowed = torch.ones(scores.shape[-2:], dtype=torch.bool, device=scores.device)
    if causal:
        allowed = allowed.tril()
    if mask is not None:
        allowed = allowed & _per_query(mask.to(torch.bool), scores.shape)
    sees_some_key = allowed.any(dim=-1, keepdim=True)
    scores = scores.masked_fill(~allowed, float("-inf")).masked_fill(~sees_some_key, 0.0)
    weights = torch.softmax(scores, dim=-1).masked_fill(~allowed, 0.0)
    return weights @ V, weights


def _per_query(mask: torch.Tensor, scores_shape: torch.Size) -> torch.Tensor:
    """``mask`` as a mask per query that broadcasts to ``scores_shape`` [B, Lq, Lk]; ValueError, naming the
    shapes, where it is neither [B, Lk] key padding nor broadcastable, or where a 2-D mask could be either."""
    B, Lq, Lk = scores_shape
    if mask.dim() == 2:
        if tuple(mask.shape) != (B, Lk):
            raise ValueError(f"a 2-D attention mask is key padding [B, Lk] = {[B, Lk]}, got {list(mask.shape)}; "
                             f"pass a mask per query as [B, Lq, Lk] = {[B, Lq, Lk]} (or [1, Lq, Lk])")
        if B == Lq > 1:
            raise ValueError(f"the 2-D attention mask {list(mask.shape)} is ambiguous when B = Lq = {B}: key padding "
                             "[B, Lk] or one mask per query [Lq, Lk]? Pass key padding as mask[:, None, :] "
                             f"([B, 1, Lk]) or a mask per query as [B, Lq, Lk] (or [1, Lq, Lk])")
        return mask.unsqueeze(-2)
    if mask.dim() != 3 or any(m not in (1, s) for m, s in zip(mask.shape, scores_shape)):
        raise ValueError(f"an attention mask is [B, Lk] or [B, Lq, Lk] = {[B, Lq, Lk]} (an axis may be 1), "
                         f"got {list(mask.shape)}")
    return mask


def multi_head_attention(x: torch.Tensor, W_q: torch.Tensor, W_k: torch.Tensor, W_v: torch.Tensor, W_o: torch.Tensor,
                         num_heads: int, causal: bool = False) -> torch.Tensor:
    """Self-attention with ``num_heads`` heads, x [B, L, D] -> [B, L, D]; every W is [D, D] (no biases),
    as ``nn.MultiheadAttention(D, num_heads, bias=False, batch_first=True)`` with
    ``in_proj_weight = cat([W_q, W_k, W_v])`` and ``out_proj.weight = W_o``: ``attention_heads`` with
    queries, keys and values all from ``x``.
    """
    return attention_heads(x, x, x, torch.cat([W_q, W_k, W_v]), None, W_o, None, num_heads, causal=causal)


def attention_heads(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, in_proj_weight: torch.Tensor,
                    in_proj_bias: torch.Tensor | None, out_proj_weight: torch.Tensor,
                    out_proj_bias: torch.Tensor | None, num_heads: int, key_mask: torch.Tensor | None = None,
                    causal: bool = False) -> torch.Tensor:
    """Multi-head attention of the queries ``q [B, Lq, D]`` over the keys ``k`` and values ``v [B, Lk, D]``:
    ``[B, Lq, D]``, as ``nn.MultiheadAttention(D, num_heads, batch_first=True)`` with these weights
    (``in_proj_weight [3D, D]`` stacks W_q, W_k, W_v; ``in_proj_bias [3D]`` their biases; a bias may be
    None for none).

    Head h attends with columns h·D/H .. (h+1)·D/H of the projections (scale √(D/H)); the heads' outputs
    are concatenated and mixed by the output projection. ``key_mask [B, Lk]``: True on real keys, padded
    keys get weight 0 from every query. ``causal``: query i sees keys j <= i only.
    """
    B, Lq, D = q.shape
    if D % num_heads:
        raise ValueError(f"the model size {D} is not divisible by num_heads={num_heads}")
    weights = in_proj_weight.chunk(3)
    biases = in_proj_bias.chunk(3) if in_proj_bias is not None else (None, None, None)

    def heads(x: torch.Tensor, part: int) -> torch.Tensor:  # [B, L, D] -> [B·H, L, D/H]
        L = x.shape[1]
        projected = linear(x, weights[part], biases[part]).view(B, L, num_heads, -1)
        return projected.transpose(1, 2).reshape(B * num_heads, L, -1)

    # row b·H + h, one mask for every query ([B·H, 1, Lk]: a 2-D mask could be misread when B·H = Lq)
    mask = None if key_mask is None else key_mask.to(torch.bool).repeat_interleave(num_heads, dim=0)[:, None, :]
    out, _ = scaled_dot_product_attention(heads(q, 0), heads(k, 1), heads(v, 2), mask, causal=causal)
    return linear(out.view(B, num_heads, Lq, -1).transpose(1, 2).reshape(B, Lq, D), out_proj_weight, out_proj_bias)
