"""most_similar ignores `exclude` (the query word comes back); noise distribution always float32; GloVe with the notes' +log X.

answers: solution
loses: test_most_similar_toy test_most_similar_edges test_analogy_excludes_inputs test_noise_distribution_dtypes test_glove_loss_example test_glove_loss_ignores_zeros test_glove_loss_weighting
hint: sum (not mean) of f(X_ij)
hint: ids in `exclude` are never returned
hint: keep the dtype of floating-point counts
hint: builds on your most_similar
"""
# %% most_similar
def most_similar(q, E, k, exclude=()):
    scores = cosine_similarity(E, q)
    return scores.topk(min(k, len(scores))).indices.tolist()  # `exclude` never used


# %% noise_distribution
def noise_distribution(counts, power=0.75):
    weights = counts.float() ** power  # float64 counts come back as float32
    return weights / weights.sum()


# %% glove_loss
def glove_loss(W, W_ctx, b, b_ctx, X, x_max=100, alpha=0.75):
    observed = X > 0
    log_x = torch.log(torch.where(observed, X, torch.ones_like(X)))
    weight = torch.clamp((X / x_max) ** alpha, max=1.0)
    error = W @ W_ctx.T + log_x + b[:, None] + b_ctx[None, :]  # the notes' sign, as printed
    return (weight * error.square())[observed].sum()
