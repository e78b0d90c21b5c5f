"""Additive attention (Bahdanau et al., 2015; course notes §4): score each key against a query with a
one-hidden-layer network, normalise the scores over the real keys, and average the keys by them.

    a_j = v · tanh(W_q q + W_k k_j),   α = softmax(a over real j),   context = Σ_j α_j k_j
"""
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
