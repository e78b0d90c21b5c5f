"""Attention (course notes §4): score each key against a query, normalise the scores over the keys
the query may see, and average the values by them.

Additive (Bahdanau et al., 2015):  a_j = v · tanh(W_q q + W_k k_j),  context = Σ_j softmax(a)_j k_j
Scaled dot product (Vaswani et al., 2017):  softmax(Q Kᵀ / √d) V, and its multi-head form.
"""
import math

import torch


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

    ``mask``: [B, Lk] (True on real keys) or [B, Lq, Lk] (True where query i may see key j).
    ``causal``: query i sees keys j <= i only. A query that may see no key gets weights 0 and output 0.
    """
    scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
    allowed = torch.ones(scores.shape[-2:], dtype=torch.bool, device=scores.device)
    if causal:
        allowed = allowed.tril()
    if mask is not None:
        mask = mask.to(torch.bool)
        allowed = allowed & (mask.unsqueeze(-2) if mask.dim() == 2 else mask)
    sees_some_key = allowed.any(dim=-1, keepdim=True)
    scores = scores.masked_fill(~allowed, float("-inf")).masked_fill(~sees_some_key, 0.0)
    weights = torch.softmax(scores, dim=-1).masked_fill(~allowed, 0.0)
    return weights @ V, weights


def multi_head_attention(x: torch.Tensor, W_q: torch.Tensor, W_k: torch.Tensor, W_v: torch.Tensor, W_o: torch.Tensor,
                         num_heads: int, causal: bool = False) -> torch.Tensor:
    """Self-attention with ``num_heads`` heads, x [B, L, D] -> [B, L, D]; every W is [D, D] (no biases),
    as ``nn.MultiheadAttention(D, num_heads, bias=False, batch_first=True)`` with
    ``in_proj_weight = cat([W_q, W_k, W_v])`` and ``out_proj.weight = W_o``.

    Head h attends with columns h·D/H .. (h+1)·D/H of the projections; the heads' outputs are
    concatenated and mixed by W_o.
    """
    B, L, D = x.shape
    if D % num_heads:
        raise ValueError(f"the model size {D} is not divisible by num_heads={num_heads}")

    def heads(W: torch.Tensor) -> torch.Tensor:  # [B, L, D] -> [B·H, L, D/H]
        return (x @ W.T).view(B, L, num_heads, -1).transpose(1, 2).reshape(B * num_heads, L, -1)

    out, _ = scaled_dot_product_attention(heads(W_q), heads(W_k), heads(W_v), causal=causal)
    return out.view(B, num_heads, L, -1).transpose(1, 2).reshape(B, L, D) @ W_o.T
