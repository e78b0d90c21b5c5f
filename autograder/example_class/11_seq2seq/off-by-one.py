"""greedy_decode writes max_len + 1 tokens; bleu takes the longest reference for the brevity penalty; additive_attention zeroes padded weights after the softmax without renormalising; the causal mask lets queries see the future (triu); multi_head_attention cuts the heads out of the wrong axis; add_and_norm forgets the residual x.

answers: solution
loses: test_greedy_decode_example test_greedy_decode_stops test_bleu_example test_bleu_brevity test_additive_attention_example test_additive_attention_gradients test_sdpa_masks test_sdpa_edges test_mha_torch test_mha_causal test_add_and_norm
hint: write at most max_len tokens
hint: the reference length closest to the candidate's
hint: a padded key gets the score -inf BEFORE the softmax
hint: query i may see keys j <= i
hint: add first (the residual connection)
hint: builds on your scaled_dot_product_attention
"""
# %% greedy_decode
def greedy_decode(step, bos, eos, max_len):
    tokens = []
    while len(tokens) <= max_len:
        tokens.append(int(step([bos, *tokens]).argmax()))
        if tokens[-1] == eos:
            break
    return tokens


# %% bleu
from collections import Counter


def bleu(candidate, references, max_n=4):
    log_sum = 0.0
    for n in range(1, max_n + 1):
        counts = Counter(tuple(candidate[i:i + n]) for i in range(len(candidate) - n + 1))
        best = Counter()
        for reference in references:
            best |= Counter(tuple(reference[i:i + n]) for i in range(len(reference) - n + 1))
        matched = sum((counts & best).values())
        if matched == 0:
            return 0.0
        log_sum += math.log(matched / sum(counts.values()))
    c, r = len(candidate), max(len(reference) for reference in references)
    return (1.0 if c > r else math.exp(1 - r / c)) * math.exp(log_sum / max_n)


# %% additive_attention
def additive_attention(query, keys, mask, W_q, W_k, v):
    scores = torch.tanh((query @ W_q.T).unsqueeze(1) + keys @ W_k.T) @ v
    weights = torch.softmax(scores, dim=-1) * mask
    return (weights.unsqueeze(-1) * keys).sum(dim=1), weights


# %% scaled_dot_product_attention
def scaled_dot_product_attention(Q, K, V, mask=None, causal=False):
    scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
    allowed = torch.ones(scores.shape[-2:], dtype=torch.bool, device=Q.device)
    if causal:
        allowed = allowed.triu()
    if mask is not None:
        allowed = allowed & (mask.unsqueeze(-2) if mask.dim() == 2 else mask)
    sees_a_key = allowed.any(dim=-1, keepdim=True)
    scores = scores.masked_fill(~allowed, float("-inf")).masked_fill(~sees_a_key, 0.0)
    weights = torch.softmax(scores, dim=-1).masked_fill(~allowed, 0.0)
    return weights @ V, weights


# %% multi_head_attention
def multi_head_attention(x, W_q, W_k, W_v, W_o, num_heads, causal=False):
    B, L, D = x.shape

    def split_heads(W):  # the head index taken from the fast axis: wrong columns per head
        return (x @ W.T).view(B, L, D // num_heads, num_heads).permute(0, 3, 1, 2).reshape(B * num_heads, L, D // num_heads)

    out, _ = scaled_dot_product_attention(split_heads(W_q), split_heads(W_k), split_heads(W_v), causal=causal)
    return out.view(B, num_heads, L, D // num_heads).transpose(1, 2).reshape(B, L, D) @ W_o.T


# %% add_and_norm
def add_and_norm(x, sublayer_out, gamma, beta):
    return layer_norm(sublayer_out, gamma, beta)
