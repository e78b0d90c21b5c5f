"""The date-normalisation recipe: teacher-forcing batches are shifted by one, and the evaluation scores a
perfect decoder 1 and a decoder that ends at once 0."""
import torch

from seqmodels.data.dates import date_pairs
from seqmodels.models.seq2seq import AttentionSeq2Seq
from seqmodels.tasks.dates import BOS, EOS, collate_pairs, target_vocabulary, translation


def test_decoder_input_and_target_are_the_output_shifted_by_one():
    data = date_pairs(n=20, seed=1)
    vocab = target_vocabulary(data)
    source, source_mask, target_in, target_out, target_mask = collate_pairs(data.train[:3], data.vocab, vocab)
    assert source.shape == source_mask.shape and target_in.shape == target_out.shape == target_mask.shape
    assert (target_in[:, 0] == vocab[BOS]).all() and (target_out[:, -1] == vocab[EOS]).all()
    assert torch.equal(target_in[:, 1:], target_out[:, :-1])
    assert source_mask.sum(1).tolist() == [len(written) for written, _ in data.train[:3]]


class Oracle(AttentionSeq2Seq):
    """Decodes by looking the answer up: greedy returns the gold output (or only </s>)."""

    def __init__(self, answers, vocab, perfect):
        super().__init__(3, len(vocab), dim=2, hidden=2, attention=2)
        self.answers, self.vocab, self.perfect = answers, vocab, perfect

    def greedy(self, source, source_mask, bos, eos, max_len):
        rows = [[self.vocab[c] for c in self.answers[tuple(row[:n])]] + [eos] if self.perfect else [eos]
                for row, n in zip(source.tolist(), source_mask.sum(1).tolist())]
        return rows, None


def test_the_evaluation_counts_exact_matches_and_correct_characters():
    data = date_pairs(n=40, seed=2)
    vocab = target_vocabulary(data)
    answers = {tuple(data.vocab.get(c, 1) for c in written): iso for written, iso in data.validation}
    for perfect, expected in [(True, 1.0), (False, 0.0)]:
        setup = translation(data, vocab, Oracle(answers, vocab, perfect), torch.device("cpu"))
        metrics = setup.evaluate(setup.model, "validation")
        assert metrics == {"validation_exact_match": expected, "validation_char_accuracy": expected}
