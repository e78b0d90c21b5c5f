"""Alternative correct answers: a heap for the beam, dictionaries for BLEU, einsum attention, a loop over heads, torch.var_mean.

answers: solution
loses: nothing
"""
# %% greedy_decode
def greedy_decode(step, bos, eos, max_len):
    prefix = [bos]
    for _ in range(max_len):
        prefix.append(int(torch.argmax(step(prefix))))
        if prefix[-1] == eos:
            break
    return prefix[1:]


# %% beam_search
import heapq


def beam_search(step, bos, eos, beam_size, max_len, alpha=0.0):
    beam, done = [(0.0, [])], []
    for _ in range(max_len):
        candidates = []
        for score, tokens in beam:
            log_probs = step([bos] + tokens)
            for token in range(log_probs.shape[0]):
                candidates.append((score + float(log_probs[token]), tokens + [token]))
        beam = []
        for score, tokens in heapq.nlargest(beam_size, candidates, key=lambda c: c[0]):
            (done if tokens[-1] == eos else beam).append((score, tokens))
        if not beam:
            break
    done.extend(beam)
    ranked = heapq.nlargest(beam_size, done, key=lambda c: c[0] / len(c[1]) ** alpha)
    return [(tokens, score) for score, tokens in ranked]


# %% bleu
def bleu(candidate, references, max_n=4):
    def count(tokens, n):
        counts = {}
        for i in range(len(tokens) - n + 1):
            gram = tuple(tokens[i:i + n])
            counts[gram] = counts.get(gram, 0) + 1
        return counts

    log_sum = 0.0
    for n in range(1, max_n + 1):
        mine = count(candidate, n)
        theirs = [count(reference, n) for reference in references]
        matched = sum(min(c, max(t.get(gram, 0) for t in theirs)) for gram, c in mine.items())
        total = sum(mine.values())
        if matched == 0:
            return 0.0
        log_sum += math.log(matched) - math.log(total)
    c = len(candidate)
    r = sorted(len(reference) for reference in references)[0]
    for length in sorted(len(reference) for reference in references):
        if abs(length - c) < abs(r - c):
            r = length
    return math.exp(log_sum / max_n) * (1.0 if c > r else math.exp(1 - r / c))


# %% additive_attention
def additive_attention(query, keys, mask, W_q, W_k, v):
    hidden = torch.tanh(torch.einsum("ah,bh->ba", W_q, query)[:, None, :] + torch.einsum("ae,ble->bla", W_k, keys))
    scores = torch.einsum("bla,a->bl", hidden, v)
    scores = torch.where(mask, scores, torch.tensor(float("-inf"), dtype=scores.dtype, device=scores.device))
    weights = torch.exp(scores - scores.max(dim=1, keepdim=True).values)
    weights = weights / weights.sum(dim=1, keepdim=True)
    return torch.einsum("bl,ble->be", weights, keys), weights


# %% scaled_dot_product_attention
def scaled_dot_product_attention(Q, K, V, mask=None, causal=False):
    Lq, Lk = Q.shape[1], K.shape[1]
    scores = torch.einsum("bqd,bkd->bqk", Q, K) / Q.shape[-1] ** 0.5
    allowed = torch.ones(Q.shape[0], Lq, Lk, dtype=torch.bool, device=Q.device)
    if causal:
        allowed = allowed & (torch.arange(Lk, device=Q.device)[None, :] <= torch.arange(Lq, device=Q.device)[:, None])
    if mask is not None:
        allowed = allowed & (mask[:, None, :] if mask.dim() == 2 else mask)
    scores = torch.where(allowed, scores, torch.full_like(scores, -1e30))
    exp = torch.exp(scores - scores.max(dim=-1, keepdim=True).values) * allowed
    weights = exp / exp.sum(dim=-1, keepdim=True).clamp_min(1e-30)
    return weights @ V, weights


# %% multi_head_attention
def multi_head_attention(x, W_q, W_k, W_v, W_o, num_heads, causal=False):
    size = x.shape[-1] // num_heads
    Q, K, V = x @ W_q.T, x @ W_k.T, x @ W_v.T
    heads = []
    for h in range(num_heads):
        part = slice(h * size, (h + 1) * size)
        heads.append(scaled_dot_product_attention(Q[..., part], K[..., part], V[..., part], causal=causal)[0])
    return torch.cat(heads, dim=-1) @ W_o.T


# %% layer_norm
def layer_norm(x, gamma, beta, eps=1e-5):
    variance, mean = torch.var_mean(x, dim=-1, unbiased=False, keepdim=True)
    return gamma * (x - mean) * torch.rsqrt(variance + eps) + beta


# %% add_and_norm
def add_and_norm(x, sublayer_out, gamma, beta):
    z = sublayer_out + x
    return layer_norm(z, gamma, beta, eps=1e-5)
