"""lm_pairs against Xiao's Eq. (4.10): input <SOS> w_1..w_m, output w_1..w_m <EOS>."""
from seqmodels.text.lm_pairs import lm_pairs


def test_shifted_by_one_with_sos_and_eos():
    inputs, targets = lm_pairs([7, 8, 9], bos=2, eos=3)
    assert (inputs, targets) == ([2, 7, 8, 9], [7, 8, 9, 3])
    assert inputs[1:] == targets[:-1]  # teacher forcing: the gold token i is the input of step i + 1


def test_empty_sentence_predicts_eos_at_once_and_input_is_not_modified():
    ids = []
    assert lm_pairs(ids, 1, 4) == ([1], [4])
    assert ids == []
    assert lm_pairs((5,), 0, 0) == ([0, 5], [5, 0])
