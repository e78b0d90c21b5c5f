"""analogy computes e_a - e_b + e_c (sign error); most_similar fails when k exceeds the rows left; skip-gram pairs each word with itself.

answers: solution
loses: test_most_similar_edges test_analogy_toy test_analogy_excludes_inputs test_skipgram_pairs_example test_skipgram_pairs_edges
hint: its contexts are the words at most
hint: builds on your most_similar
"""
# %% most_similar
def most_similar(q, E, k, exclude=()):
    scores = cosine_similarity(E, q).clone()
    for i in exclude:
        scores[i] = float("-inf")
    return scores.topk(k).indices.tolist()  # k larger than the rows left: error or excluded ids


# %% analogy
def analogy(a, b, c, E, vocab, k=1):
    ids = [vocab[a], vocab[b], vocab[c]]
    target = E[ids[0]] - E[ids[1]] + E[ids[2]]  # a - b + c instead of b - a + c
    word_of = {i: w for w, i in vocab.items()}
    return [word_of[i] for i in most_similar(target, E, k, exclude=ids)]


# %% skipgram_pairs
def skipgram_pairs(ids, window):
    return [(ids[i], ids[j]) for i in range(len(ids))
            for j in range(max(0, i - window), min(len(ids), i + window + 1))]  # includes (i, i)
