"""The learning-rate schedule of the Transformer (Vaswani et al., 2017, §5.3, Eq. 3): linear warm-up, then
decay with the inverse square root of the step::

    rate(step) = d_model^−0.5 · min(step^−0.5, step · warmup^−1.5),  step >= 1

The two terms meet at ``step = warmup``, where the rate peaks at (d_model · warmup)^−0.5. Early updates of
a freshly initialised post-norm transformer are the ones that blow up (Adam's second-moment estimates are
still poor and the residual stream has not settled); a small rate for the first ``warmup`` steps avoids it.
``warmup_schedule`` makes it a multiplier of the optimizer's rate for ``torch.optim.lr_scheduler.LambdaLR``.
"""


def warmup_rate(step: int, d_model: int, warmup: int) -> float:
    """Vaswani et al.'s Eq. 3 at ``step >= 1``."""
    if step < 1:
        raise ValueError(f"the schedule counts steps from 1, got {step}")
    return d_model ** -0.5 * min(step ** -0.5, step * warmup ** -1.5)


def warmup_schedule(d_model: int, warmup: int):
    """``LambdaLR``'s multiplier for scheduler step s (from 0): ``warmup_rate(s + 1, d_model, warmup)``."""
    return lambda s: warmup_rate(s + 1, d_model, warmup)
