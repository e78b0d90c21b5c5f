"""The BiLSTM-CRF tagger: both BiLSTM paths agree; its loss is the CRF NLL; decoding is Viterbi per sentence."""
import torch

from seqmodels.models.crf_tagger import CRFTagger
from seqmodels.structured.crf import crf_nll, crf_viterbi
from seqmodels.text.batching import pad_batch


def test_paths_agree_and_the_loss_is_the_crf_nll(assert_paths_agree):
    torch.manual_seed(0)
    model = CRFTagger(12, 4, 5, 3).double()
    ids, mask = pad_batch([[3, 4, 5], [6]])
    assert_paths_agree(model, ids, mask, select=lambda scores: scores[mask])
    tags = torch.tensor([[0, 1, 2], [1, 0, 0]])
    torch.nn.init.normal_(model.transitions)
    expected = crf_nll(model(ids, mask), tags, mask, model.transitions, model.start, model.end)
    torch.testing.assert_close(model.loss(ids, mask, tags), expected)


def test_decoding_runs_viterbi_on_each_sentence_alone():
    torch.manual_seed(1)
    model = CRFTagger(12, 4, 5, 3)
    torch.nn.init.normal_(model.transitions)
    ids, mask = pad_batch([[3, 4, 5, 7], [6, 2]])
    decoded = model.decode(ids, mask)
    alone = crf_viterbi(model(ids[1:, :2], mask[1:, :2])[0], model.transitions, model.start, model.end)[0]
    assert [len(d) for d in decoded] == [4, 2] and decoded[1] == alone
