import copy

import pytest
import torch


@pytest.fixture
def assert_paths_agree(device):
    """Check that a model's fast and hand-written paths give the same outputs and gradients, on each
    device (a copy of the model and the inputs are moved there; on CUDA the fast path is cuDNN's)."""
    def check(model, *inputs, select=lambda out: out):
        model = copy.deepcopy(model).to(device)
        inputs = [x.to(device) if isinstance(x, torch.Tensor) else x for x in inputs]
        results = []
        for hand_written in (False, True):
            model.zero_grad()
            for part in model.modules():  # the model and any submodule with two paths
                if hasattr(part, "hand_written"):
                    part.hand_written = hand_written
            out = select(model(*inputs))
            out.square().sum().backward()
            results.append((out.detach(), [p.grad.clone() for p in model.parameters() if p.grad is not None]))
        torch.testing.assert_close(results[0][0], results[1][0])
        for fast, slow in zip(results[0][1], results[1][1], strict=True):
            torch.testing.assert_close(fast, slow)
    return check


@pytest.fixture
def classifier_losses():
    """The cross-entropy losses of a classifier over a few Adam steps on one batch."""
    def train(model, ids, mask, labels, steps: int, lr: float = 0.05) -> list[float]:
        optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        losses = []
        for _ in range(steps):
            loss = torch.nn.functional.cross_entropy(model(ids, mask), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        return losses
    return train
