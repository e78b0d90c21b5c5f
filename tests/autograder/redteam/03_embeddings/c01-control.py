"""An honest, correct submission graded in the same batch, with its own cosine_similarity.

answers: solution
loses: nothing
"""
# %% cosine_similarity
def cosine_similarity(u, v):
    norms = u.norm(dim=-1) * v.norm(dim=-1)
    return (u * v).sum(-1) / norms.clamp_min(1e-30) * (norms > 0)  # 0 for a zero vector
