"""warmup_rate: Vaswani et al.'s values by hand (linear up to the peak (d·w)^−0.5 at step w, then the inverse
square root), and as a multiplier of LambdaLR."""
import pytest
import torch

from seqmodels.training.schedules import warmup_rate, warmup_schedule


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
