"""Softmax with a temperature, for sampling from a language model (course notes §1, sampling novel sequences).

    p_k = exp(z_k / T) / sum_j exp(z_j / T)

T = 1 is the model's distribution; T < 1 sharpens it towards the argmax (greedy as T -> 0), T > 1
flattens it towards uniform. The stable softmax subtracts the maximum after the division by T, so a
small T cannot overflow.

Chapter 13 cuts the tail before sampling. **Top-k** keeps the k most probable tokens; **top-p** (nucleus
sampling, Holtzman et al., 2020, "The Curious Case of Neural Text Degeneration", Eqs. 2-3) keeps the
smallest set of most probable tokens whose probability reaches p::

    V(p) = the smallest prefix of the tokens sorted by probability with  sum_{v in V(p)} P(v) >= p   (Eq. 2)
    P'(v) = P(v) / sum_{u in V(p)} P(u)  for v in V(p),  0 otherwise                       (Eq. 3)

Decisions where the papers are silent: top-k is applied first and top-p then works on the renormalised
top-k distribution (as Hugging Face's samplers do); a token tied with the last one kept is kept too (no
arbitrary choice between equally probable tokens), so a cut can keep more than k tokens; at least one token
always stays, even for p = 0.
"""
import torch

from seqmodels.layers.activations import log_softmax, softmax


def temperature_softmax(logits: torch.Tensor, temperature: float) -> torch.Tensor:
    """``softmax(logits / temperature)`` over the last axis, stable for any ``temperature > 0``."""
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    return softmax(logits / temperature, dim=-1)


def _keep_at_least(log_p: torch.Tensor, threshold: torch.Tensor) -> torch.Tensor:
    """``log_p`` renormalised over the tokens whose log-probability is at least ``threshold [B, 1]``."""
    return log_softmax(log_p.masked_fill(log_p < threshold, float("-inf")), dim=-1)


def filter_logits(logits: torch.Tensor, temperature: float = 1.0, top_k: int | None = None,
                  top_p: float | None = None) -> torch.Tensor:
    """Log-probabilities ``[B, V]`` of ``logits / temperature`` restricted to the ``top_k`` most probable
    tokens, then to the nucleus of probability ``top_p`` (Eq. 2), renormalised (Eq. 3); removed tokens get −inf."""
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    log_p = log_softmax(logits / temperature, dim=-1)
    if top_k is not None:
        k = max(1, min(int(top_k), log_p.shape[-1]))
        log_p = _keep_at_least(log_p, log_p.topk(k, dim=-1).values[:, -1:])
    if top_p is not None:
        sorted_log_p = log_p.sort(dim=-1, descending=True).values
        before = sorted_log_p.exp().cumsum(dim=-1) - sorted_log_p.exp()  # mass of the tokens ranked above
        last = (before < top_p).sum(dim=-1, keepdim=True).clamp(1, log_p.shape[-1]) - 1  # the last token kept
        log_p = _keep_at_least(log_p, sorted_log_p.gather(-1, last))
    return log_p


def sample_tokens(logits: torch.Tensor, generator: torch.Generator, temperature: float = 1.0,
                  top_k: int | None = None, top_p: float | None = None) -> torch.Tensor:
    """One token per row ``[B]`` drawn with ``generator`` from ``filter_logits(logits, ...)``."""
    probabilities = filter_logits(logits, temperature, top_k, top_p).exp()
    return torch.multinomial(probabilities, 1, generator=generator)[:, 0]
