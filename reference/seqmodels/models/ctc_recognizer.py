"""A BiLSTM-CTC recogniser (Xiao Sec. 4.5.2): frames in, per-frame label log-probabilities out (blank = 0).

``hand_written=True`` uses the course's ``bilstm_encode`` and ``ctc_loss``; otherwise PyTorch's
bidirectional LSTM on the padded batch and ``F.ctc_loss``. Same values, same gradients.
"""
import torch
from torch import nn
from torch.nn import functional as F

from seqmodels.models.recurrent_layer import lstm_outputs
from seqmodels.structured.ctc import ctc_greedy_decode, ctc_loss
from seqmodels.training import at_least_float32


class CTCRecognizer(nn.Module):
    def __init__(self, features: int, hidden: int, symbols: int, *, hand_written: bool = False):
        super().__init__()
        self.lstm = nn.LSTM(features, hidden, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, symbols + 1)  # + the blank, id 0
        self.hand_written = hand_written

    def forward(self, frames: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        """Log-probabilities ``[T, B, symbols + 1]`` (time first, as CTC losses take them)."""
        outputs = lstm_outputs(self.lstm, frames, lengths, self.hand_written)
        return at_least_float32(self.out(outputs)).log_softmax(-1).transpose(0, 1)

    def loss(self, frames, lengths, targets, target_lengths) -> torch.Tensor:
        """Mean CTC loss per target symbol (``reduction="mean"``)."""
        log_probs = self(frames, lengths)
        loss_fn = ctc_loss if self.hand_written else F.ctc_loss
        return loss_fn(log_probs, targets, lengths, target_lengths, reduction="mean")

    def decode(self, frames: torch.Tensor, lengths: torch.Tensor) -> list[list[int]]:
        """Best-path transcriptions, symbols numbered from 1."""
        log_probs = self(frames, lengths).cpu()  # one copy from the device, not one per utterance
        return [ctc_greedy_decode(log_probs[:n, b]) for b, n in enumerate(lengths.tolist())]
