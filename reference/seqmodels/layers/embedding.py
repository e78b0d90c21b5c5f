"""From token ids to vectors: one-hot codes and embedding lookup (Aziz Eq. F.1; Xiao Eq. 4.5)."""
import torch


def _check_ids(ids: torch.Tensor, size: int, what: str) -> None:
    if not isinstance(ids, torch.Tensor) or ids.is_floating_point() or ids.is_complex() or ids.dtype == torch.bool:
        raise TypeError(f"{what} expects a tensor of integer ids, got {type(ids).__name__} {getattr(ids, 'dtype', '')}")
    if ids.numel() and (int(ids.min()) < 0 or int(ids.max()) >= size):
        raise IndexError(f"{what}: ids must lie in [0, {size}), got values from {int(ids.min())} to {int(ids.max())}")


def onehot(ids: torch.Tensor, V: int) -> torch.Tensor:
    """``onehot_V``: a float32 tensor of shape ``[*ids.shape, V]`` with a single 1 per vector."""
    _check_ids(ids, V, "onehot")
    return (ids.unsqueeze(-1) == torch.arange(V, device=ids.device)).to(torch.float32)


def embed(ids: torch.Tensor, E: torch.Tensor) -> torch.Tensor:
    """``embed_D(t; E)``: row ``t`` of the table ``E[V, D]`` for every id, shape ``[*ids.shape, D]``.

    Equal to ``onehot(ids, V) @ E`` (Xiao Eq. 4.5) without building the V-wide codes;
    gradients flow into the rows of ``E`` that were looked up.
    """
    _check_ids(ids, E.shape[0], "embed")
    return E[ids]
