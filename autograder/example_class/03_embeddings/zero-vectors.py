"""Cosine gives nan for a zero vector; analogy does not exclude a, b, c; skip-gram skips repeated words; noise ignores power; naive log(sigmoid); GloVe ignores alpha.

answers: solution
loses: test_cosine_similarity_batched test_analogy_excludes_inputs test_skipgram_pairs_edges test_noise_distribution_example test_noise_distribution_dtypes test_negative_sampling_loss_stable test_glove_loss_weighting
hint: a zero vector has similarity 0, not nan
hint: f(x) = min(1, (x / x_max) ** alpha)
hint: not inf
hint: raise the counts to the power, THEN divide
hint: skip the center's own POSITION
hint: builds on your cosine_similarity
"""
# %% cosine_similarity
def cosine_similarity(u, v):
    return (u * v).sum(dim=-1) / (u.norm(dim=-1) * v.norm(dim=-1))  # 0 / 0 = nan for a zero vector


# %% analogy
def analogy(a, b, c, E, vocab, k=1):
    target = E[vocab[b]] - E[vocab[a]] + E[vocab[c]]
    words = list(vocab)
    ids = list(vocab.values())
    return [words[ids.index(i)] for i in most_similar(target, E, k)]  # a, b, c may come back


# %% skipgram_pairs
def skipgram_pairs(ids, window):
    pairs = []
    for i, center in enumerate(ids):
        for j in range(max(0, i - window), min(len(ids), i + window + 1)):
            if ids[j] != center:  # compares words, not positions
                pairs.append((center, ids[j]))
    return pairs


# %% noise_distribution
def noise_distribution(counts, power=0.75):
    counts = counts.double() if counts.is_floating_point() and counts.dtype == torch.float64 else counts.float()
    return counts / counts.sum()  # the plain unigram distribution: power never used


# %% negative_sampling_loss
def negative_sampling_loss(center, context, negatives):
    positive = torch.log(torch.sigmoid((center * context).sum(-1)))
    negative = torch.log(torch.sigmoid(-(negatives @ center.unsqueeze(-1)).squeeze(-1))).sum(-1)
    return -(positive + negative).mean()


# %% glove_loss
def glove_loss(W, W_ctx, b, b_ctx, X, x_max=100, alpha=0.75):
    rows, cols = torch.nonzero(X, as_tuple=True)
    x = X[rows, cols]
    weight = torch.clamp((x / x_max) ** 0.75, max=1.0)  # alpha hard-coded
    error = (W[rows] * W_ctx[cols]).sum(-1) + b[rows] + b_ctx[cols] - torch.log(x)
    return (weight * error**2).sum()
