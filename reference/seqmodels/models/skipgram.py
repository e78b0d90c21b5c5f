"""Skip-gram with negative sampling (course notes §2): center vectors E, context vectors O.

Each (center, context) pair is scored against K words drawn from the noise distribution.
``hand_written=True`` uses the course's ``negative_sampling_loss``; otherwise the same
objective as binary cross-entropy with logits (label 1 for the context, 0 for the noise).
"""
import torch
from torch import nn
from torch.nn import functional as F

from seqmodels.embeddings.word2vec import negative_sampling_loss


class SkipGram(nn.Module):
    def __init__(self, vocab_size: int, dim: int, *, hand_written: bool = False):
        super().__init__()
        self.E = nn.Embedding(vocab_size, dim)
        self.O = nn.Embedding(vocab_size, dim)
        nn.init.uniform_(self.E.weight, -0.5 / dim, 0.5 / dim)
        nn.init.zeros_(self.O.weight)  # word2vec's initialisation
        self.hand_written = hand_written

    def forward(self, center: torch.Tensor, context: torch.Tensor, negatives: torch.Tensor) -> torch.Tensor:
        """The mean loss of the batch: center, context ``[B]``, negatives ``[B, K]``."""
        c, o, n = self.E(center), self.O(context), self.O(negatives)
        if self.hand_written:
            return negative_sampling_loss(c, o, n)
        logits = torch.cat([(c * o).sum(-1, keepdim=True), (n @ c.unsqueeze(-1)).squeeze(-1)], dim=1)
        labels = torch.zeros_like(logits)
        labels[:, 0] = 1.0
        return F.binary_cross_entropy_with_logits(logits, labels, reduction="sum") / len(center)
