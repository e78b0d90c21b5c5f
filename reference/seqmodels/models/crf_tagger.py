"""A BiLSTM-CRF tagger (Xiao Sec. 4.5.3): the BiLSTM scores each tag at each position (emissions), the CRF
scores tag-to-tag moves, training maximises log p(y | x) = s(y) - log Z, decoding is Viterbi.

``hand_written`` switches the BiLSTM as in seqmodels.models.tagger; the CRF is always the course's.
"""
import torch
from torch import nn

from seqmodels.models.tagger import Tagger
from seqmodels.structured.crf import crf_nll, crf_viterbi_fused
from seqmodels.training import at_least_float32


class CRFTagger(nn.Module):
    def __init__(self, vocab_size: int, dim: int, hidden: int, tags: int, *, hand_written: bool = False):
        super().__init__()
        self.emitter = Tagger(vocab_size, dim, hidden, tags, bidirectional=True, hand_written=hand_written)
        self.transitions = nn.Parameter(torch.zeros(tags, tags))  # [prev, cur]
        self.start = nn.Parameter(torch.zeros(tags))
        self.end = nn.Parameter(torch.zeros(tags))

    def forward(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Emission scores ``[B, L, tags]``."""
        return self.emitter(ids, mask)

    def loss(self, ids: torch.Tensor, mask: torch.Tensor, tags: torch.Tensor) -> torch.Tensor:
        return crf_nll(at_least_float32(self(ids, mask)), tags, mask, self.transitions, self.start, self.end)

    def decode(self, ids: torch.Tensor, mask: torch.Tensor) -> list[list[int]]:
        emissions = at_least_float32(self(ids, mask))
        return crf_viterbi_fused(emissions, mask, self.transitions, self.start, self.end)[0]  # = crf_viterbi_batch
