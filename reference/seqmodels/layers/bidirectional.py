"""Bidirectional recurrent encoders (Aziz F.15-F.18; Xiao Sec. 4.2.3).

A backward LSTM reads each row's real prefix from its end: ``v = LSTM(reverse(x))``. Its
output at position i is the state after reading tokens l..i, so, with ``u`` the forward
states, ``o_i = [u_i, v_{l-i+1}]`` (Eq. F.17) and the summary is ``z = [u_l, v_l]`` (Eq. F.18).
"""
import torch

from seqmodels.layers.gated import lstm_encode


def reverse_padded(x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    """Each row's first ``lengths[b]`` steps in reverse order; padding stays where it is."""
    L = x.shape[1]
    positions = torch.arange(L, device=x.device).expand(x.shape[0], L)
    lengths = lengths.to(x.device).unsqueeze(1)
    source = torch.where(positions < lengths, lengths - 1 - positions, positions)  # [B, L]
    return x.gather(1, source.unsqueeze(-1).expand_as(x))


def bilstm_encode(x: torch.Tensor, lengths: torch.Tensor, params_fwd, params_bwd) -> tuple[torch.Tensor, torch.Tensor]:
    """``o [B, L, 2K]`` (0 on padding) and ``z [B, 2K]``; matches ``nn.LSTM(bidirectional=True)`` on packed input."""
    mask = torch.arange(x.shape[1], device=x.device) < lengths.to(x.device).unsqueeze(1)
    u, (u_last, _) = lstm_encode(x, mask, params_fwd)
    v_reversed, (v_last, _) = lstm_encode(reverse_padded(x, lengths), mask, params_bwd)
    v = reverse_padded(v_reversed, lengths)  # v at position i read tokens l..i
    return torch.cat([u, v], dim=-1), torch.cat([u_last, v_last], dim=-1)
