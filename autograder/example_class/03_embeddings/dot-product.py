"""Cosine as a plain dot product; skip-gram window one short on the right; NS loss summed over the batch; GloVe over every cell (log 0).

answers: solution
loses: test_cosine_similarity_examples test_cosine_similarity_batched test_most_similar_toy test_most_similar_edges test_analogy_toy test_analogy_excludes_inputs test_skipgram_pairs_example test_skipgram_pairs_edges test_negative_sampling_loss_example test_negative_sampling_loss_gradients test_glove_loss_ignores_zeros
hint: the product of BOTH lengths
hint: sum only over the observed cells
hint: the batch MEAN is (K + 1) log 2
hint: the loss of the batch is the MEAN over its pairs
hint: its contexts are the words at most
hint: builds on your cosine_similarity
"""
# %% cosine_similarity
def cosine_similarity(u, v):
    # "similar vectors have a large dot product"
    return (u * v).sum(dim=-1)


# %% skipgram_pairs
def skipgram_pairs(ids, window):
    pairs = []
    for i, center in enumerate(ids):
        for j in range(max(0, i - window), min(len(ids), i + window)):  # stops one short on the right
            if j != i:
                pairs.append((center, ids[j]))
    return pairs


# %% negative_sampling_loss
import torch.nn.functional as F


def negative_sampling_loss(center, context, negatives):
    positive = F.logsigmoid((center * context).sum(-1))
    negative = F.logsigmoid(-torch.einsum("bkd,bd->bk", negatives, center)).sum(-1)
    return -(positive + negative).sum()  # summed, not averaged, over the batch


# %% glove_loss
def glove_loss(W, W_ctx, b, b_ctx, X, x_max=100, alpha=0.75):
    weight = torch.clamp((X / x_max) ** alpha, max=1.0)  # f(0) = 0, so zeros "drop out"... but 0 * inf = nan
    error = W @ W_ctx.T + b[:, None] + b_ctx[None, :] - torch.log(X)
    return (weight * error**2).sum()
