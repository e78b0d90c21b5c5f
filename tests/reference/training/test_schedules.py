"""warmup_rate: Vaswani et al.'s values by hand (linear up to the peak (d·w)^−0.5 at step w, then the inverse
square root), and as a multiplier of LambdaLR."""
import pytest
import torch

from seqmodels.training.schedules import cosine_schedule, warmup_rate, warmup_schedule


def test_values_by_hand():
    assert warmup_rate(1, 512, 4000) == pytest.approx(512 ** -0.5 * 4000 ** -1.5)
    assert warmup_rate(4000, 512, 4000) == pytest.approx((512 * 4000) ** -0.5)
    assert warmup_rate(16000, 512, 4000) == pytest.approx(warmup_rate(4000, 512, 4000) / 2)  # 1/√step after
    assert warmup_rate(2000, 64, 4000) == pytest.approx(warmup_rate(4000, 64, 4000) / 2)  # linear before
    rates = [warmup_rate(s, 64, 100) for s in range(1, 400)]
    assert max(rates) == rates[99]
    with pytest.raises(ValueError):
        warmup_rate(0, 64, 100)


def test_as_a_lambda_lr_multiplier():
    parameter = torch.nn.Parameter(torch.zeros(1))
    optimizer = torch.optim.SGD([parameter], lr=1.0)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, warmup_schedule(32, 10))
    seen = []
    for _ in range(3):
        seen.append(optimizer.param_groups[0]["lr"])
        optimizer.step()
        scheduler.step()
    assert seen == pytest.approx([warmup_rate(s, 32, 10) for s in (1, 2, 3)])


def test_cosine_schedule_against_pytorchs_linear_then_cosine_annealing():
    """cosine_schedule through LambdaLR against PyTorch's own LinearLR for the warm-up followed by
    CosineAnnealingLR down to a tenth of the peak (an independent implementation of the same curve)."""
    warmup, total, peak = 5, 30, 0.01
    rates = {}
    for name in ("ours", "pytorch"):
        optimizer = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=peak)
        if name == "ours":
            scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, cosine_schedule(warmup, total))
        else:
            scheduler = torch.optim.lr_scheduler.SequentialLR(optimizer, [
                torch.optim.lr_scheduler.LinearLR(optimizer, 1 / warmup, 1.0, total_iters=warmup - 1),
                torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, total - warmup, eta_min=0.1 * peak)],
                milestones=[warmup])
        rates[name] = []
        for _ in range(total + 1):
            rates[name].append(optimizer.param_groups[0]["lr"])
            optimizer.step()
            scheduler.step()
    assert rates["ours"] == pytest.approx(rates["pytorch"], rel=1e-9, abs=1e-15)
    assert rates["ours"][warmup - 1] == pytest.approx(peak) and rates["ours"][0] == pytest.approx(peak / warmup)
    assert rates["ours"][total] == pytest.approx(0.1 * peak)
    assert cosine_schedule(warmup, total)(total + 50) == pytest.approx(0.1)  # the floor after the run
    with pytest.raises(ValueError, match="warm-up"):
        cosine_schedule(30, 30)
