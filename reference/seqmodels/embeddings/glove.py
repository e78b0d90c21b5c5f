"""GloVe's weighted least squares over co-occurrence counts (course notes §2; Pennington et al., 2014)."""
import torch


def glove_loss(W: torch.Tensor, W_ctx: torch.Tensor, b: torch.Tensor, b_ctx: torch.Tensor, X: torch.Tensor,
               x_max: float = 100.0, alpha: float = 0.75) -> torch.Tensor:
    """``Σ_{ij: X_ij > 0} f(X_ij) (w_i·w̃_j + b_i + b̃_j - log X_ij)^2`` with ``f(x) = min(1, (x / x_max)^alpha)``."""
    observed = X > 0
    log_x = torch.log(torch.where(observed, X, torch.ones_like(X)))
    weight = torch.clamp((X / x_max) ** alpha, max=1.0)
    error = W @ W_ctx.T + b[:, None] + b_ctx[None, :] - log_x
    return (weight * error.square())[observed].sum()
