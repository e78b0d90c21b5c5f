"""An honest, correct submission graded in the same batch, with its own ctc_extend.

answers: solution
loses: nothing
"""
# %% ctc_extend
def ctc_extend(target, blank=0):
    extended = [blank]
    for label in target:
        extended += [label, blank]
    return extended
