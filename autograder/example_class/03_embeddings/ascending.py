"""most_similar sorts ascending (least similar first); noise: power applied to the probabilities, not renormalised.

answers: solution
loses: test_most_similar_toy test_most_similar_edges test_analogy_toy test_analogy_excludes_inputs test_noise_distribution_example test_noise_distribution_dtypes
hint: most similar first
hint: raise the counts to the power, THEN divide
hint: builds on your most_similar
"""
# %% most_similar
def most_similar(q, E, k, exclude=()):
    scores = cosine_similarity(E, q)
    order = torch.argsort(scores)  # ascending: the LEAST similar first
    return [int(i) for i in order if int(i) not in set(exclude)][:k]


# %% noise_distribution
def noise_distribution(counts, power=0.75):
    dtype = counts.dtype if counts.is_floating_point() else torch.float32
    unigram = counts.to(dtype) / counts.sum()
    return unigram ** power
