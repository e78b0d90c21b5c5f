"""AdamW: Adam with decoupled weight decay (Loshchilov & Hutter, 2019, "Decoupled Weight Decay Regularization",
Algorithm 2), as the open models since 2023 train (LLaMA, Touvron et al., 2023, §2.2: β1 = 0.9, β2 = 0.95,
weight decay 0.1).

Adam's L2 penalty would pass through the division by √v̂ and shrink rarely updated weights least; AdamW
shrinks each weight directly, by lr · λ · θ at every update (Algorithm 2, line 12). The matrices decay; the
biases and the norms' gains do not (they set scales and offsets, which decay would pull to 0 for no gain),
as GPT-2's successors (nanoGPT, LLaMA's code) group them.
"""
import torch
from torch import nn


def adamw(model: nn.Module, lr: float, weight_decay: float = 0.1,
          betas: tuple[float, float] = (0.9, 0.95)) -> torch.optim.AdamW:
    """``torch.optim.AdamW`` over ``model``'s parameters: those with two or more axes (matrices, embedding
    tables) decay by ``weight_decay``, the vectors (biases, norm gains) not at all."""
    parameters = [p for p in model.parameters() if p.requires_grad]
    groups = [{"params": [p for p in parameters if p.dim() >= 2], "weight_decay": weight_decay},
              {"params": [p for p in parameters if p.dim() < 2], "weight_decay": 0.0}]
    return torch.optim.AdamW(groups, lr=lr, betas=betas)
