"""Skip-gram: the hand-written negative-sampling loss and PyTorch's BCE-with-logits give the same loss and gradients."""
import torch

from seqmodels.models.skipgram import SkipGram


def test_both_losses_agree_in_value_and_gradient():
    torch.manual_seed(0)
    model = SkipGram(30, 6).double()
    torch.nn.init.normal_(model.O.weight)  # non-zero context vectors, so the comparison means something
    center, context, negatives = torch.randint(30, (8,)), torch.randint(30, (8,)), torch.randint(30, (8, 5))
    results = []
    for hand_written in (False, True):
        model.zero_grad()
        model.hand_written = hand_written
        loss = model(center, context, negatives)
        loss.backward()
        results.append((loss.detach(), model.E.weight.grad.clone(), model.O.weight.grad.clone()))
    for fast, slow in zip(*results):
        torch.testing.assert_close(fast, slow)


def test_the_initial_loss_is_k_plus_one_times_log_two():
    model = SkipGram(10, 4)  # zero context vectors: every score is 0, every sigmoid 1/2
    loss = model(torch.tensor([1, 2]), torch.tensor([3, 4]), torch.randint(10, (2, 5)))
    torch.testing.assert_close(loss, torch.tensor(6 * 0.6931471805599453))
