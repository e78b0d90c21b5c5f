"""Alternative correct answers: loops, normalise-then-dot, sorted(), -softplus, a GloVe loop over observed pairs.

answers: solution
loses: nothing
"""
# %% cosine_similarity
def cosine_similarity(u, v):
    u_hat = u / u.norm(dim=-1, keepdim=True).clamp_min(1e-30)
    v_hat = v / v.norm(dim=-1, keepdim=True).clamp_min(1e-30)
    return (u_hat * v_hat).sum(dim=-1)


# %% most_similar
def most_similar(q, E, k, exclude=()):
    skip = set(int(i) for i in exclude)
    scores = [(float(cosine_similarity(E[i], q)), i) for i in range(E.shape[0]) if i not in skip]
    return [i for _, i in sorted(scores, key=lambda pair: -pair[0])[:k]]


# %% analogy
def analogy(a, b, c, E, vocab, k=1):
    target = E[vocab[b]] - E[vocab[a]] + E[vocab[c]]
    words = {index: word for word, index in vocab.items()}
    found = most_similar(target, E, k + 3)
    return [words[i] for i in found if words[i] not in (a, b, c)][:k]


# %% skipgram_pairs
def skipgram_pairs(ids, window):
    pairs = []
    for i in range(len(ids)):
        left = [(ids[i], ids[j]) for j in range(i - window, i) if j >= 0]
        right = [(ids[i], ids[j]) for j in range(i + 1, i + window + 1) if j < len(ids)]
        pairs += left + right
    return pairs


# %% noise_distribution
def noise_distribution(counts, power=0.75):
    out_dtype = counts.dtype if counts.is_floating_point() else torch.float32
    p = counts.double() / counts.sum()  # normalising first changes nothing: the constant cancels
    p = p ** power
    return (p / p.sum()).to(out_dtype)


# %% negative_sampling_loss
import torch.nn.functional as F


def negative_sampling_loss(center, context, negatives):
    total = 0
    for b in range(center.shape[0]):
        loss = F.softplus(-(center[b] @ context[b]))
        for k in range(negatives.shape[1]):
            loss = loss + F.softplus(negatives[b, k] @ center[b])
        total = total + loss
    return total / center.shape[0]


# %% glove_loss
def glove_loss(W, W_ctx, b, b_ctx, X, x_max=100, alpha=0.75):
    total = torch.zeros((), dtype=W.dtype, device=W.device)
    for i, j in torch.nonzero(X > 0).tolist():
        weight = min(1.0, (float(X[i, j]) / x_max) ** alpha)
        error = W[i] @ W_ctx[j] + b[i] + b_ctx[j] - torch.log(X[i, j])
        total = total + weight * error**2
    return total
