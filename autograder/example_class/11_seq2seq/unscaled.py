"""beam_search ignores alpha; scaled_dot_product_attention forgets to divide by sqrt(d), which multi_head_attention inherits; add_and_norm normalises the sub-layer before adding x (pre-norm).

answers: solution
loses: test_beam_search_length_norm test_sdpa_example test_sdpa_masks test_sdpa_edges test_mha_torch test_mha_causal test_add_and_norm
hint: divide the scores Q K^T by sqrt(d)
hint: rank the finished hypotheses by log P / len(tokens) ** alpha
hint: add first (the residual connection)
hint: builds on your scaled_dot_product_attention
"""
# %% beam_search
def beam_search(step, bos, eos, beam_size, max_len, alpha=0.0):
    live, finished = [([], 0.0)], []
    for _ in range(max_len):
        extensions = [(tokens + [token], score + log_p) for tokens, score in live
                      for token, log_p in enumerate(step([bos, *tokens]).tolist())]
        kept = sorted(extensions, key=lambda h: h[1], reverse=True)[:beam_size]
        finished += [h for h in kept if h[0][-1] == eos]
        live = [h for h in kept if h[0][-1] != eos]
        if not live:
            break
    return sorted(finished + live, key=lambda h: h[1], reverse=True)[:beam_size]


# %% scaled_dot_product_attention
def scaled_dot_product_attention(Q, K, V, mask=None, causal=False):
    scores = Q @ K.transpose(-2, -1)
    allowed = torch.ones(scores.shape[-2:], dtype=torch.bool, device=Q.device)
    if causal:
        allowed = allowed.tril()
    if mask is not None:
        allowed = allowed & (mask.unsqueeze(-2) if mask.dim() == 2 else mask)
    sees_a_key = allowed.any(dim=-1, keepdim=True)
    scores = scores.masked_fill(~allowed, float("-inf")).masked_fill(~sees_a_key, 0.0)
    weights = torch.softmax(scores, dim=-1).masked_fill(~allowed, 0.0)
    return weights @ V, weights


# %% add_and_norm
def add_and_norm(x, sublayer_out, gamma, beta):
    return x + layer_norm(sublayer_out, gamma, beta)
