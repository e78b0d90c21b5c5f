"""An honest, correct submission graded in the same batch, with its own crf_score.

answers: solution
loses: nothing
"""
# %% crf_score
def crf_score(emissions, tags, transitions, start, end):
    steps = torch.arange(emissions.shape[0], device=emissions.device)
    return (start[tags[0]] + emissions[steps, tags].sum() + transitions[tags[:-1], tags[1:]].sum() + end[tags[-1]])
