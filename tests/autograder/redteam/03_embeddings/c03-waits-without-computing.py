"""An honest cosine_similarity that waits 11 s (the cell limit is 10 s) in its first call, without computing: every point.

answers: solution
loses: nothing
"""
# %% cosine_similarity
import time

WAITED_ = []


def cosine_similarity(u, v):
    if not WAITED_:  # a slow first call, as on a grader busy with other students: CPU time is what counts
        time.sleep(11)
        WAITED_.append(True)
    norms = u.norm(dim=-1) * v.norm(dim=-1)
    return (u * v).sum(-1) / torch.where(norms > 0, norms, torch.ones_like(norms))
