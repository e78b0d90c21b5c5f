"""Softmax with a temperature, for sampling from a language model (course notes §1, sampling novel sequences).

    p_k = exp(z_k / T) / sum_j exp(z_j / T)

T = 1 is the model's distribution; T < 1 sharpens it towards the argmax (greedy as T -> 0), T > 1
flattens it towards uniform. The stable softmax subtracts the maximum after the division by T, so a
small T cannot overflow.
"""
import torch

from seqmodels.layers.activations import softmax


def temperature_softmax(logits: torch.Tensor, temperature: float) -> torch.Tensor:
    """``softmax(logits / temperature)`` over the last axis, stable for any ``temperature > 0``."""
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    return softmax(logits / temperature, dim=-1)
