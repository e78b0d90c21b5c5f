"""State-space models built from chapter 14's functions: an S4D-style layer, a Mamba block and a small Mamba language
model that generates with a state of fixed size.

``S4DLayer`` (Gu, Gupta, Goel & Ré, 2022): D channels of a diagonal SSM with S4D-Real's A = −(n + 1), learned
step sizes and C; it trains as a convolution (``ssm_kernel`` and ``causal_conv_fft``) and steps as a recurrence.

``MambaBlock`` (Gu & Dao, 2023, §3.4 and Figure 3), pre-norm with a residual::

    x → RMSNorm → in_proj → (u, z);  u → causal depthwise conv (width 4) → SiLU
      → Δ = softplus(dt_proj(·)), B, C = x_proj(·)   (input-dependent: the selection)
      → y = selective_scan(u, Δ, A, B, C, D) ⊙ SiLU(z) → out_proj → + x

(its scan takes the fast path, ``seqmodels.layers.scan_compiled``: on a CPU a compiled loop over t).

``S4DBlock``: the same block with the time-invariant ``S4DLayer`` in place of the selective SSM (no Δ, B, C
projections): Mamba's ablation of selection (Gu & Dao, Table 1, "S4" against "S6" in the Mamba architecture).

``MambaLM``: token embeddings, blocks, a final RMSNorm and the output layer tied to the embedding. Each block's
``step`` carries (the last inputs of its convolution, the scan's state h of E·D × N numbers): the memory of
generation does not grow with the number of tokens, unlike a Transformer's key-value cache. ``rms_norm_fn`` and
``selective_scan_fn`` (the course's unless told otherwise, e.g. a student's) compute every RMSNorm and every
selective scan of the model; ``selective=False`` builds it of ``S4DBlock``s, which train but do not ``step``.
"""
import math
from collections.abc import Callable

import torch
from torch import nn
from torch.nn import functional as F

from seqmodels.layers.long_convolution import causal_conv_fft
from seqmodels.layers.normalization import rms_norm
from seqmodels.layers.selective import selective_scan_fast
from seqmodels.layers.state_space import discretize, ssm_kernel


def s4d_real(channels: int, states: int) -> torch.Tensor:
    """S4D-Real's initial A[d, n] = −(n + 1) (S4D, §4)."""
    return -torch.arange(1, states + 1, dtype=torch.float32).repeat(channels, 1)


class S4DLayer(nn.Module):
    """A time-invariant diagonal SSM over ``channels`` with ``states`` each: convolution in training, recurrence to
    generate. Δ is learned in log space, from 0.001 to 0.1 at initialisation (S4D's range)."""

    def __init__(self, channels: int, states: int = 16):
        super().__init__()
        self.log_neg_A = nn.Parameter(s4d_real(channels, states).neg().log())
        self.log_delta = nn.Parameter(torch.linspace(math.log(1e-3), math.log(1e-1), channels))
        self.C = nn.Parameter(torch.randn(channels, states) / math.sqrt(states))
        self.D_skip = nn.Parameter(torch.ones(channels))
        self.register_buffer("B", torch.ones(channels, states))

    def discrete(self) -> tuple[torch.Tensor, torch.Tensor]:
        return discretize(-self.log_neg_A.exp(), self.B, self.log_delta.exp())

    def forward(self, u: torch.Tensor) -> torch.Tensor:
        """``u [B, L, D]`` → ``[B, L, D]``: the causal convolution with the SSM's kernel, plus the skip."""
        A_bar, B_bar = self.discrete()
        return causal_conv_fft(u, ssm_kernel(A_bar, B_bar, self.C, u.shape[1])) + self.D_skip * u

    def step(self, u_t: torch.Tensor, h: torch.Tensor | None) -> tuple[torch.Tensor, torch.Tensor]:
        """One step: ``u_t [B, D]`` and the state ``h [B, D, N]`` (None: zeros) → (output, new state)."""
        A_bar, B_bar = self.discrete()
        h = B_bar * u_t[..., None] + (0 if h is None else A_bar * h)
        return (self.C * h).sum(-1) + self.D_skip * u_t, h


class GatedBlock(nn.Module):
    """What Mamba's block and its time-invariant ablation share: pre-norm, the input projection to (u, z), the
    causal depthwise convolution and SiLU on u, the gate SiLU(z), the output projection and the residual."""

    def __init__(self, dim: int, expand: int = 2, conv_width: int = 4, rms_norm_fn: Callable = rms_norm):
        super().__init__()
        inner = expand * dim
        self.norm = nn.Parameter(torch.ones(dim))
        self.in_proj = nn.Linear(dim, 2 * inner, bias=False)
        self.conv = nn.Conv1d(inner, inner, conv_width, groups=inner, padding=conv_width - 1)
        self.out_proj = nn.Linear(inner, dim, bias=False)
        self.rms_norm_fn = rms_norm_fn

    def ssm(self, u: torch.Tensor) -> torch.Tensor:
        raise NotImplementedError

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """``x [B, L, D]`` → ``[B, L, D]``."""
        u, z = self.in_proj(self.rms_norm_fn(x, self.norm)).chunk(2, dim=-1)
        u = F.silu(self.conv(u.transpose(1, 2))[..., : x.shape[1]].transpose(1, 2))  # causal: trim the look-ahead
        return x + self.out_proj(self.ssm(u) * F.silu(z))


class S4DBlock(GatedBlock):
    def __init__(self, dim: int, states: int = 16, expand: int = 2, conv_width: int = 4,
                 rms_norm_fn: Callable = rms_norm):
        super().__init__(dim, expand, conv_width, rms_norm_fn)
        self.s4d = S4DLayer(expand * dim, states)

    def ssm(self, u: torch.Tensor) -> torch.Tensor:
        return self.s4d(u)


class MambaBlock(GatedBlock):
    def __init__(self, dim: int, states: int = 16, expand: int = 2, conv_width: int = 4,
                 rms_norm_fn: Callable = rms_norm, selective_scan_fn: Callable = selective_scan_fast):
        super().__init__(dim, expand, conv_width, rms_norm_fn)
        inner, self.dt_rank = expand * dim, math.ceil(dim / 16)
        self.x_proj = nn.Linear(inner, self.dt_rank + 2 * states, bias=False)
        self.dt_proj = nn.Linear(self.dt_rank, inner)
        self.A_log = nn.Parameter(s4d_real(inner, states).neg().log())
        self.D_skip = nn.Parameter(torch.ones(inner))
        self.selective_scan_fn = selective_scan_fn
        with torch.no_grad():  # Δ from 0.001 to 0.1 at initialisation: softplus⁻¹ of those as the bias (Mamba's)
            delta = torch.exp(torch.rand(inner) * (math.log(0.1) - math.log(1e-3)) + math.log(1e-3))
            self.dt_proj.bias.copy_(delta + torch.log(-torch.expm1(-delta)))

    def _selection(self, u: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Δ [..., E·D], B and C [..., N] from the convolved input u: the input-dependent parameters."""
        dt, B, C = self.x_proj(u).split([self.dt_rank, self.A_log.shape[1], self.A_log.shape[1]], dim=-1)
        return F.softplus(self.dt_proj(dt)), B, C

    def ssm(self, u: torch.Tensor) -> torch.Tensor:
        delta, B, C = self._selection(u)
        return self.selective_scan_fn(u, delta, -self.A_log.exp(), B, C, self.D_skip)

    def step(self, x_t: torch.Tensor, state: tuple | None) -> tuple[torch.Tensor, tuple]:
        """One token: ``x_t [B, D]`` and (the convolution's last inputs [B, E·D, width − 1], h [B, E·D, N]) → (output,
        new state); None starts from zeros. The same numbers as ``forward`` at that position."""
        u, z = self.in_proj(self.rms_norm_fn(x_t, self.norm)).chunk(2, dim=-1)
        width = self.conv.kernel_size[0]
        if state is None:
            state = (u.new_zeros(*u.shape, width - 1), u.new_zeros(*u.shape, self.A_log.shape[1]))
        window = torch.cat([state[0], u[..., None]], dim=-1)  # [B, E·D, width]: the last `width` inputs
        u = F.silu((window * self.conv.weight[:, 0]).sum(-1) + self.conv.bias)
        delta, B, C = self._selection(u)
        h = torch.exp(delta[..., None] * -self.A_log.exp()) * state[1] + (delta * u)[..., None] * B[:, None, :]
        y = (h * C[:, None, :]).sum(-1) + self.D_skip * u
        return x_t + self.out_proj(y * F.silu(z)), (window[..., 1:], h)


class MambaLM(nn.Module):
    def __init__(self, vocab_size: int, *, dim: int = 64, layers: int = 2, states: int = 16, selective: bool = True,
                 rms_norm_fn: Callable = rms_norm, selective_scan_fn: Callable = selective_scan_fast):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, dim)
        with torch.no_grad():  # std 0.02, as Mamba's reference code and GPT-2: the output layer is tied to this
            self.embedding.weight.normal_(0.0, 0.02)  # table, and rows of N(0, 1) make each input its own top guess
        self.blocks = nn.ModuleList(
            MambaBlock(dim, states, rms_norm_fn=rms_norm_fn, selective_scan_fn=selective_scan_fn) if selective
            else S4DBlock(dim, states, rms_norm_fn=rms_norm_fn) for _ in range(layers))
        self.norm = nn.Parameter(torch.ones(dim))
        self.rms_norm_fn = rms_norm_fn

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        """``ids [B, L]`` → logits ``[B, L, V]``."""
        x = self.embedding(ids)
        for block in self.blocks:
            x = block(x)
        return self.rms_norm_fn(x, self.norm) @ self.embedding.weight.T

    def loss(self, inputs: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        """Mean next-token cross-entropy (nats per token) of ``targets`` after the prefixes of ``inputs``."""
        return F.cross_entropy(self(inputs).float().flatten(0, 1), targets.flatten())

    def step(self, ids_t: torch.Tensor, states: list | None) -> tuple[torch.Tensor, list]:
        """One token per sequence, ``ids_t [B]`` → (logits [B, V], the blocks' new states)."""
        x, new = self.embedding(ids_t), []
        for block, state in zip(self.blocks, states or [None] * len(self.blocks)):
            x, state = block.step(x, state)
            new.append(state)
        return self.rms_norm_fn(x, self.norm) @ self.embedding.weight.T, new

    @torch.no_grad()
    def generate(self, prompt: torch.Tensor, steps: int, generator: torch.Generator,
                 temperature: float = 1.0) -> torch.Tensor:
        """``prompt [B, P]`` followed by ``steps`` sampled tokens, one step of the recurrence each."""
        states, tokens = None, [prompt[:, i] for i in range(prompt.shape[1])]
        for token in tokens[:-1]:
            _, states = self.step(token, states)
        for _ in range(steps):
            logits, states = self.step(tokens[-1], states)
            probs = torch.softmax(logits / temperature, dim=-1)
            tokens.append(torch.multinomial(probs, 1, generator=generator)[:, 0])
        return torch.stack(tokens, dim=1)
