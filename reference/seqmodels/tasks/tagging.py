"""Entity tagging where right context matters (chapter 06): LSTM vs BiLSTM on seqmodels.data.entities."""
import torch

from seqmodels.data.entities import TAGS, entities
from seqmodels.models.crf_tagger import CRFTagger
from seqmodels.models.tagger import Tagger
from seqmodels.tasks.base import SCALES, Scale, Setup, Task, tagging


def builder(kind: str):
    def build(device: torch.device, hand_written: bool = False, seed: int = 0, scale: Scale = SCALES["cpu"]) -> Setup:
        data = entities(n=3000 * scale.data, seed=seed)
        dim, hidden = 24 * scale.width, 32 * scale.width
        if kind == "crf":
            model = CRFTagger(len(data.vocab), dim, hidden, len(TAGS), hand_written=hand_written)
        else:
            model = Tagger(len(data.vocab), dim, hidden, len(TAGS), bidirectional=kind == "bilstm",
                           hand_written=hand_written)
        return tagging(data, TAGS, model, device, seed, batch_size=32 * scale.batch)
    return build


TAGGING = [Task("tagging-lstm", "left-to-right LSTM tagger on BIO entities whose type needs right context "
                "(chapter 06)", builder("lstm"), epochs=6),
           Task("tagging-bilstm", "BiLSTM tagger on the same entities (chapter 06)", builder("bilstm"), epochs=6),
           Task("tagging-bilstm-crf", "BiLSTM-CRF tagger on the same entities (chapter 10)", builder("crf"), epochs=6)]
