"""The answers of earlier chapters that each chapter's demos use: the recorder notes exactly the graded functions
that a notebook's own cells reach through the package, and the recorded lists agree with the notebooks as read
by hand."""
import nbformat
import pytest

from grading.instructor.course import chapters
from grading.instructor.release import earlier_answers


def test_the_recorder_notes_the_outermost_calls_of_functions_the_notebook_does_not_define(tmp_path):
    """lstm_encode runs lstm_step and scan (rnn_encode's loop) inside it: in the student release the student's
    lstm_encode replaces all three, so only lstm_encode counts. crf_viterbi_batch is crf_viterbi by another route
    (student.DERIVED). The notebook's own encode is found by the release, so the package's encode needs nothing."""
    code = nbformat.v4.new_code_cell
    notebook = nbformat.v4.new_notebook(cells=[
        code("import torch, seqmodels\n"
             "from seqmodels.models.recurrent_layer import weights\n"
             "from seqmodels.structured.crf import crf_viterbi_batch"),
        code("ids, mask = seqmodels.pad_batch([[1, 2], [3]])"),
        code("def encode(tokens, vocab):\n    return [vocab[t] for t in tokens]\n\n"
             "seqmodels.encode(['a'], {'a': 1})"),
        code("params = weights(torch.nn.LSTM(2, 3, batch_first=True))\n"
             "seqmodels.lstm_encode(torch.zeros(2, 2, 2), mask, params)"),
        code("crf_viterbi_batch(torch.zeros(2, 2, 3), mask, torch.zeros(3, 3), torch.zeros(3), torch.zeros(3))"),
    ])
    assert earlier_answers.used_in(notebook, tmp_path) == ["crf_viterbi", "lstm_encode", "pad_batch"]


# Read in the notebooks and the package code their demo cells call. 01: its demos use only its own functions.
# 02: the sentiment data builds its vocabulary with build_vocab, classification batches with encode and
# pad_batch, AveragedEmbeddingClassifier(hand_written=True) looks words up with embed. 04: the same data, and
# the stacking demo calls chapter 06's stack. 05: first_symbol and classification as above, and the language
# model's batches call lm_pairs. 06: the entities data and tagging as above; chapter 05's LSTM, which its
# tagger runs, is handed out in the notebook. 14: its generation demo steps chapter 13's attend_with_cache;
# the recall demo's GPT has rotary positions (rope); the language-model demo's GPT reads the news text's BPE
# (bpe_train, bpe_encode) and generates (sample_tokens), and its character LSTM is chapter 04's char-lm (build_vocab, encode, pad_batch), as in 13.
BY_HAND = {
    "01_tokens": {},
    "02_pooling": {"01_tokens": ["build_vocab", "embed", "encode", "pad_batch"]},
    "04_rnn": {"01_tokens": ["build_vocab", "encode", "pad_batch"], "06_bidirectional": ["stack"]},
    "05_lstm_gru": {"01_tokens": ["build_vocab", "encode", "pad_batch"], "04_rnn": ["lm_pairs"]},
    "06_bidirectional": {"01_tokens": ["build_vocab", "encode", "pad_batch"]},
    "14_ssm": {"01_tokens": ["build_vocab", "encode", "pad_batch"],
               "13_gpt": ["attend_with_cache", "bpe_encode", "bpe_train", "rope", "sample_tokens"]},
}


@pytest.mark.parametrize("chapter", sorted(BY_HAND))
def test_recorded_lists_agree_with_the_notebooks_read_by_hand(chapter):
    assert earlier_answers.uses(chapter) == BY_HAND[chapter]


def test_every_chapter_is_recorded():
    for chapter in chapters():
        assert isinstance(earlier_answers.uses(chapter), dict)
