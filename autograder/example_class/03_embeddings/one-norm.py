"""Cosine divided by one length only; skip-gram drops the edge centres; noise not renormalised; sigma(c·n) for negatives; GloVe weight not capped.

answers: solution
loses: test_cosine_similarity_examples test_cosine_similarity_batched test_skipgram_pairs_example test_skipgram_pairs_edges test_noise_distribution_example test_noise_distribution_dtypes test_negative_sampling_loss_example test_negative_sampling_loss_stable test_negative_sampling_loss_gradients test_glove_loss_weighting
hint: the product of BOTH lengths
hint: f(x) = min(1, (x / x_max) ** alpha)
hint: -log sigmoid(-c·n_k) for each negative
hint: raise the counts to the power, THEN divide
hint: its contexts are the words at most
"""
# %% cosine_similarity
def cosine_similarity(u, v):
    return (u * v).sum(dim=-1) / u.norm(dim=-1).clamp_min(1e-12)  # forgot |v|


# %% skipgram_pairs
def skipgram_pairs(ids, window):
    pairs = []
    for i in range(window, len(ids) - window):  # only centres with a full window
        for j in range(i - window, i + window + 1):
            if j != i:
                pairs.append((ids[i], ids[j]))
    return pairs


# %% noise_distribution
def noise_distribution(counts, power=0.75):
    p = counts / counts.sum()
    return (p ** power).to(counts.dtype if counts.is_floating_point() else torch.float32)  # not renormalised


# %% negative_sampling_loss
import torch.nn.functional as F


def negative_sampling_loss(center, context, negatives):
    positive = F.logsigmoid((center * context).sum(-1))
    negative = F.logsigmoid((negatives * center[:, None, :]).sum(-1)).sum(-1)  # sigma(c·n): sign lost
    return -(positive + negative).mean()


# %% glove_loss
def glove_loss(W, W_ctx, b, b_ctx, X, x_max=100, alpha=0.75):
    observed = X > 0
    weight = (X[observed] / x_max) ** alpha  # no cap at 1 above x_max
    error = (W @ W_ctx.T + b[:, None] + b_ctx[None, :])[observed] - torch.log(X[observed])
    return (weight * error**2).sum()
