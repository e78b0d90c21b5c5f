"""Word embeddings: similarity queries, skip-gram with negative sampling, GloVe."""
