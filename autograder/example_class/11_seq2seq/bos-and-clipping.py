"""greedy_decode returns bos in front of its tokens; bleu counts matches without clipping; additive_attention ignores the mask.

answers: solution
loses: test_greedy_decode_example test_greedy_decode_stops test_bleu_example test_bleu_brevity test_bleu_edges test_additive_attention_example test_additive_attention_gradients
hint: leave bos out of the result
hint: count each candidate n-gram at most as often
hint: a padded key gets the score -inf BEFORE the softmax
"""
# %% greedy_decode
def greedy_decode(step, bos, eos, max_len):
    tokens = [bos]
    while len(tokens) <= max_len:
        tokens.append(int(step(tokens).argmax()))
        if tokens[-1] == eos:
            break
    return tokens


# %% bleu
from collections import Counter


def bleu(candidate, references, max_n=4):
    log_sum = 0.0
    for n in range(1, max_n + 1):
        grams = [tuple(candidate[i:i + n]) for i in range(len(candidate) - n + 1)]
        in_references = set(tuple(r[i:i + n]) for r in references for i in range(len(r) - n + 1))
        matched = sum(gram in in_references for gram in grams)  # every occurrence counts
        if matched == 0:
            return 0.0
        log_sum += math.log(matched / len(grams))
    c = len(candidate)
    r = min((len(ref) for ref in references), key=lambda length: (abs(length - c), length))
    return (1.0 if c > r else math.exp(1 - r / c)) * math.exp(log_sum / max_n)


# %% additive_attention
def additive_attention(query, keys, mask, W_q, W_k, v):
    scores = torch.tanh((query @ W_q.T).unsqueeze(1) + keys @ W_k.T) @ v
    weights = torch.softmax(scores, dim=-1)
    return (weights.unsqueeze(-1) * keys).sum(dim=1), weights
