"""Near-copy detection: renamed copies of the reference are found; independent answers are not."""
import inspect

import seqmodels
from grading.instructor.intake.similarity import near_copies, similarity


def test_a_verbatim_copy_is_flagged():
    source = inspect.getsource(seqmodels.pad_batch)
    assert near_copies(source) == [("pad_batch", 1.0)]


def test_renaming_variables_and_rewording_comments_does_not_hide_a_copy():
    source = inspect.getsource(seqmodels.pad_batch)
    disguised = (source.replace("longest", "n").replace("mask", "keep").replace("row", "r")
                 .replace('"""', '"""Written by me. ', 1))
    [(name, score)] = near_copies(disguised)
    assert name == "pad_batch" and score >= 0.95


def test_an_independent_answer_is_not_flagged():
    own = '''
def pad_batch(seqs, pad_id=0):
    width = max(map(len, seqs))
    rows = [list(s) + [pad_id] * (width - len(s)) for s in seqs]
    flags = [[True] * len(s) + [False] * (width - len(s)) for s in seqs]
    return torch.tensor(rows, dtype=torch.long), torch.tensor(flags)
'''
    assert near_copies(own) == []
    assert similarity(own, inspect.getsource(seqmodels.pad_batch)) < 0.9


def test_functions_the_reference_does_not_have_and_broken_code_are_ignored():
    assert near_copies("def helper(x):\n    return x") == []
    assert near_copies("def pad_batch(:") == []
