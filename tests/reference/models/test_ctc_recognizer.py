"""The BiLSTM-CTC recogniser: hand-written (bilstm_encode + ctc_loss) and PyTorch paths agree."""
import torch

from seqmodels.models.ctc_recognizer import CTCRecognizer


def batch():
    g = torch.Generator().manual_seed(0)
    frames = torch.randn(3, 9, 4, dtype=torch.float64, generator=g)
    return frames, torch.tensor([9, 6, 4]), torch.tensor([[1, 2, 2], [3, 0, 0], [1, 3, 0]]), torch.tensor([3, 1, 2])


def test_log_probabilities_agree(assert_paths_agree):
    torch.manual_seed(0)
    model = CTCRecognizer(4, 5, 3).double()
    frames, lengths, _, _ = batch()
    valid = (torch.arange(9)[:, None] < lengths[None, :])  # [T, B]: padded frames are not compared
    assert_paths_agree(model, frames, lengths, select=lambda log_probs: log_probs[valid])


def test_losses_and_their_gradients_agree():
    torch.manual_seed(0)
    model = CTCRecognizer(4, 5, 3).double()
    results = []
    for hand_written in (False, True):
        model.zero_grad()
        model.hand_written = hand_written
        loss = model.loss(*batch())
        loss.backward()
        results.append((loss.detach(), [p.grad.clone() for p in model.parameters()]))
    torch.testing.assert_close(results[0][0], results[1][0])
    for fast, slow in zip(results[0][1], results[1][1]):
        torch.testing.assert_close(fast, slow)


def test_decoding_returns_one_transcription_per_utterance():
    model = CTCRecognizer(4, 5, 3)
    frames, lengths, _, _ = batch()
    decoded = model.decode(frames.float(), lengths)
    assert len(decoded) == 3 and all(all(1 <= s <= 3 for s in d) for d in decoded)
