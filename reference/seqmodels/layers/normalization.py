"""Layer normalisation, the transformer's residual "add & norm" (course notes §4; Ba et al., 2016) and RMSNorm
(Zhang & Sennrich, 2019)."""
import torch


def layer_norm(x: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor, eps: float = 1e-5) -> torch.Tensor:
    """Normalise each vector over its last axis to mean 0 and variance 1 (the biased variance, as
    PyTorch), then scale by ``gamma`` and shift by ``beta`` (both ``[D]``)."""
    mean = x.mean(dim=-1, keepdim=True)
    variance = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(variance + eps) * gamma + beta


def add_and_norm(x: torch.Tensor, sublayer_out: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor) -> torch.Tensor:
    """LayerNorm(x + Sublayer(x)): the residual connection around a sub-layer, then layer norm."""
    return layer_norm(x + sublayer_out, gamma, beta)


def rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float = 1e-5) -> torch.Tensor:
    """RMSNorm (Zhang & Sennrich, 2019, Eq. 4): divide each vector by its root mean square over the last axis and
    scale by ``weight [D]``; no mean is subtracted and nothing is added, so it costs less than layer norm."""
    return x / torch.sqrt((x * x).mean(dim=-1, keepdim=True) + eps) * weight  # RMS(a) = sqrt(mean(a²)), Eq. 4
