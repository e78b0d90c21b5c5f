"""multi_head_attention scales every head by sqrt(D) instead of sqrt(D / num_heads); bleu averages the n-gram precisions arithmetically instead of geometrically.

answers: solution
loses: test_mha_torch test_mha_causal test_bleu_example test_bleu_brevity test_bleu_edges
hint: the geometric mean of p_1 ... p_4
hint: head i uses columns
"""
# %% multi_head_attention
def multi_head_attention(x, W_q, W_k, W_v, W_o, num_heads, causal=False):
    B, L, D = x.shape

    def split_heads(W):
        return (x @ W.T).view(B, L, num_heads, D // num_heads).transpose(1, 2)

    Q, K, V = split_heads(W_q), split_heads(W_k), split_heads(W_v)
    scores = Q @ K.transpose(-2, -1) / math.sqrt(D)
    if causal:
        scores = scores.masked_fill(torch.ones(L, L, dtype=torch.bool, device=x.device).triu(1), float("-inf"))
    out = torch.softmax(scores, dim=-1) @ V
    return out.transpose(1, 2).reshape(B, L, D) @ W_o.T


# %% bleu
from collections import Counter


def bleu(candidate, references, max_n=4):
    precisions = []
    for n in range(1, max_n + 1):
        counts = Counter(tuple(candidate[i:i + n]) for i in range(len(candidate) - n + 1))
        best = Counter()
        for reference in references:
            best |= Counter(tuple(reference[i:i + n]) for i in range(len(reference) - n + 1))
        matched = sum((counts & best).values())
        if matched == 0:
            return 0.0
        precisions.append(matched / sum(counts.values()))
    c = len(candidate)
    r = min((len(ref) for ref in references), key=lambda length: (abs(length - c), length))
    return (1.0 if c > r else math.exp(1 - r / c)) * sum(precisions) / max_n
