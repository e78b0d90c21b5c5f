"""Softmax with a temperature, for sampling from a language model (course notes §1, sampling novel sequences).

    p_k = exp(z_k / T) / sum_j exp(z_j / T)

T = 1 is the model's distribution; T < 1 sharpens it towards the argmax (greedy as T -> 0), T > 1
flattens it towards uniform. The maximum is subtracted after dividing by T, so small T cannot overflow.
"""
import torch


def temperature_softmax(logits: torch.Tensor, temperature: float) -> torch.Tensor:
    """``softmax(logits / temperature)`` over the last axis, stable for any ``temperature > 0``."""
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    scaled = logits / temperature
    e = torch.exp(scaled - scaled.amax(dim=-1, keepdim=True).detach())
    return e / e.sum(dim=-1, keepdim=True)
