"""beam_search multiplies probabilities and returns P, not log P; bleu smooths a zero precision with add-one; additive_attention drops the tanh; scaled_dot_product_attention exponentiates without subtracting the maximum (overflow, NaN for a query that sees no key); layer_norm computes the variance as mean(x**2) - mean(x)**2.

answers: solution
loses: test_beam_search_example test_beam_search_length_norm test_bleu_example test_bleu_brevity test_bleu_edges test_additive_attention_example test_additive_attention_gradients test_sdpa_edges test_layer_norm_edges
hint: return log P, the sum of the steps' log-probabilities
hint: score_j = v . tanh(W_q q + W_k k_j)
hint: no smoothing
hint: mean(z**2) - mu**2 cancels
hint: softmax of a row of -inf is NaN
"""
# %% beam_search
def beam_search(step, bos, eos, beam_size, max_len, alpha=0.0):
    live, finished = [([], 1.0)], []
    for _ in range(max_len):
        extensions = [(tokens + [token], prob * p) for tokens, prob in live
                      for token, p in enumerate(step([bos, *tokens]).exp().tolist())]
        kept = sorted(extensions, key=lambda h: h[1], reverse=True)[:beam_size]
        finished += [h for h in kept if h[0][-1] == eos]
        live = [h for h in kept if h[0][-1] != eos]
        if not live:
            break
    finished += live
    return sorted(finished, key=lambda h: h[1] / len(h[0]) ** alpha, reverse=True)[:beam_size]


# %% bleu
from collections import Counter


def bleu(candidate, references, max_n=4):
    log_sum = 0.0
    for n in range(1, max_n + 1):
        counts = Counter(tuple(candidate[i:i + n]) for i in range(len(candidate) - n + 1))
        best = Counter()
        for reference in references:
            best |= Counter(tuple(reference[i:i + n]) for i in range(len(reference) - n + 1))
        matched, total = sum((counts & best).values()), sum(counts.values())
        log_sum += math.log((matched + 1) / (total + 1)) if matched == 0 else math.log(matched / total)
    c = len(candidate)
    r = min((len(ref) for ref in references), key=lambda length: (abs(length - c), length))
    return (1.0 if c > r else math.exp(1 - r / max(c, 1))) * math.exp(log_sum / max_n)


# %% additive_attention
def additive_attention(query, keys, mask, W_q, W_k, v):
    scores = ((query @ W_q.T).unsqueeze(1) + keys @ W_k.T) @ v
    weights = torch.softmax(scores.masked_fill(~mask, float("-inf")), dim=-1)
    return (weights.unsqueeze(-1) * keys).sum(dim=1), weights


# %% scaled_dot_product_attention
def scaled_dot_product_attention(Q, K, V, mask=None, causal=False):
    scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
    allowed = torch.ones(scores.shape[-2:], dtype=torch.bool, device=Q.device)
    if causal:
        allowed = allowed.tril()
    if mask is not None:
        allowed = allowed & (mask.unsqueeze(-2) if mask.dim() == 2 else mask)
    exp = torch.exp(scores) * allowed
    weights = exp / exp.sum(dim=-1, keepdim=True)
    return weights @ V, weights


# %% layer_norm
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    variance = (x ** 2).mean(dim=-1, keepdim=True) - mean ** 2
    return (x - mean) / torch.sqrt(variance + eps) * gamma + beta
