"""The learning-rate schedule of the Transformer (Vaswani et al., 2017, §5.3, Eq. 3): linear warm-up, then
decay with the inverse square root of the step::

    rate(step) = d_model^−0.5 · min(step^−0.5, step · warmup^−1.5),  step >= 1

The two terms meet at ``step = warmup``, where the rate peaks at (d_model · warmup)^−0.5. Early updates of
a freshly initialised post-norm transformer are the ones that blow up (Adam's second-moment estimates are
still poor and the residual stream has not settled); a small rate for the first ``warmup`` steps avoids it.
``warmup_schedule`` makes it a multiplier of the optimizer's rate for ``torch.optim.lr_scheduler.LambdaLR``.

The open models since 2023 (LLaMA, Touvron et al., 2023, §2.2) warm up linearly and then decay along half a
cosine to a tenth of the peak rate by the last step: ``cosine_schedule``, the factor of the peak rate at
update s (from 0) of ``total``::

    factor(s) = (s + 1) / warmup                                           s < warmup
    factor(s) = floor + (1 − floor) · (1 + cos(π · min(1, (s − warmup) / (total − warmup)))) / 2      after

Both are what the trainer's ``scheduler=`` option takes.
"""
import math


def warmup_rate(step: int, d_model: int, warmup: int) -> float:
    """Vaswani et al.'s Eq. 3 at ``step >= 1``."""
    if step < 1:
        raise ValueError(f"the schedule counts steps from 1, got {step}")
    return d_model ** -0.5 * min(step ** -0.5, step * warmup ** -1.5)


def warmup_schedule(d_model: int, warmup: int):
    """``LambdaLR``'s multiplier for scheduler step s (from 0): ``warmup_rate(s + 1, d_model, warmup)``."""
    return lambda s: warmup_rate(s + 1, d_model, warmup)


def cosine_schedule(warmup: int, total: int, floor: float = 0.1):
    """``LambdaLR``'s multiplier for update s (from 0): linear warm-up to 1 over ``warmup`` updates, then half a
    cosine down to ``floor`` at update ``total`` (and ``floor`` after it)."""
    if not 0 < warmup < total:
        raise ValueError(f"the warm-up ({warmup} updates) must be positive and shorter than the run ({total})")

    def factor(s: int) -> float:
        if s < warmup:
            return (s + 1) / warmup
        progress = min(1.0, (s - warmup) / (total - warmup))
        return floor + (1.0 - floor) * 0.5 * (1.0 + math.cos(math.pi * progress))
    return factor
