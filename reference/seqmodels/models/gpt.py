"""A generative transformer language model (Radford et al., 2019, GPT-2) and its classifier for fine-tuning
(chapter 13).

    x_i = E[t_i] + P[i]           (learned positions; ``positions="rope"``: no P, queries and keys rotated)
    h = the GPT blocks over x      (seqmodels.layers.gpt, Eqs. 1-2: pre-norm, causal, GELU)
    logits_i = LN_f(h_i) Eᵀ        (the output layer tied to the input embedding, as GPT-2 does)

The blocks are ``nn.TransformerEncoderLayer(norm_first=True, activation="gelu")`` modules used for their
weights. The fast path computes a block with ``F.scaled_dot_product_attention`` (FlashAttention or
memory-efficient kernels on a GPU), which also allows RoPE inside attention and a key-value cache;
``hand_written=True`` runs ``block_fn`` (the course's ``gpt_block`` unless told otherwise, e.g. a student's)
on the same weights (learned positions only: ``gpt_block`` has no rotation), and generates with the cache
through ``attend_fn`` (``attend_with_cache``). ``rope_fn`` rotates the queries and keys of a RoPE model. Same
outputs. Chapter 13's demo passes a student's functions here (seqmodels.tasks.yours).

``generate`` samples with ``sample_fn`` (``sample_tokens``); with ``cache=True`` (the default) every block keeps
the keys and values of the positions generated so far (Eq. 3 of seqmodels.layers.gpt): the fast path in buffers
allocated once, the hand-written path in ``attend_fn``'s growing cache, one position at a time; each step runs
the blocks on the newest token only. ``cache=False`` reruns the whole prefix at every step.

**What today's open models change** (LLaMA, Touvron et al., 2023; Mistral, Jiang et al., 2023), each an option
whose default keeps GPT-2's choice: ``norm="rms"`` puts RMSNorm (Zhang & Sennrich, 2019, Eq. 4: chapter 14's
``rms_norm``, here PyTorch's fused ``F.rms_norm`` as layer norm is ``F.layer_norm``) in place of every layer norm, ``ffn="swiglu"`` the SwiGLU network (``seqmodels.layers.swiglu``, of
the width that keeps the parameter count) in place of the GELU one, and ``positions="rope"`` rotates queries and
keys instead of adding learned positions. The variants keep their weights in the same
``nn.TransformerEncoderLayer`` modules, with ``norm1``, ``norm2`` (and ``final_norm``) made ``nn.RMSNorm`` and
``linear1`` (W and V stacked) and ``linear2`` made bias-free; they run on the fast path only.

``GPTClassifier`` reads a GPT's final state at each sequence's last real token (the only one that has seen
the whole sequence under the causal mask) into a linear layer: fine-tuning trains both.
"""
from collections.abc import Callable

import torch
from torch import nn
from torch.nn import functional as F

from seqmodels.layers.gpt import attend_with_cache, fast_causal_attention, gpt_block
from seqmodels.layers.rotary import rope
from seqmodels.layers.sampling import sample_tokens
from seqmodels.layers.swiglu import swiglu, swiglu_width
from seqmodels.models.transformer import block_weights


class GPT(nn.Module):
    def __init__(self, vocab_size: int, *, dim: int = 64, heads: int = 4, feedforward: int = 256, layers: int = 2,
                 max_len: int = 128, positions: str = "learned", norm: str = "layer", ffn: str = "gelu",
                 hand_written: bool = False, block_fn: Callable = gpt_block, rope_fn: Callable = rope,
                 attend_fn: Callable = attend_with_cache, sample_fn: Callable = sample_tokens):
        super().__init__()
        for name, value, allowed in [("positions", positions, ("learned", "rope")), ("norm", norm, ("layer", "rms")),
                                     ("ffn", ffn, ("gelu", "swiglu"))]:
            if value not in allowed:
                raise ValueError(f"{name} must be one of {allowed}, not {value!r}")
        if hand_written and positions == "rope":
            raise ValueError("the hand-written path runs gpt_block, which has no rotary positions")
        if hand_written and (norm, ffn) != ("layer", "gelu"):
            raise ValueError("the hand-written path runs gpt_block, which has layer norms and a GELU network")
        self.embedding = nn.Embedding(vocab_size, dim)
        self.position_embedding = nn.Embedding(max_len, dim) if positions == "learned" else None
        with torch.no_grad():  # GPT-2's initialisation of both tables
            for table in (self.embedding, self.position_embedding):
                if table is not None:
                    table.weight.normal_(0.0, 0.02)
        self.blocks = nn.ModuleList(
            nn.TransformerEncoderLayer(dim, heads, feedforward, dropout=0.0, activation="gelu", batch_first=True,
                                       norm_first=True) for _ in range(layers))
        self.final_norm = nn.LayerNorm(dim)
        if norm == "rms":
            self.final_norm = nn.RMSNorm(dim, eps=1e-5)
            for layer in self.blocks:
                layer.norm1, layer.norm2 = nn.RMSNorm(dim, eps=1e-5), nn.RMSNorm(dim, eps=1e-5)
        if ffn == "swiglu":
            width = swiglu_width(dim, feedforward)
            for layer in self.blocks:
                layer.linear1 = nn.Linear(dim, 2 * width, bias=False)  # W (the gate) over V
                layer.linear2 = nn.Linear(width, dim, bias=False)  # W2
        self.heads, self.max_len, self.positions, self.norm, self.ffn = heads, max_len, positions, norm, ffn
        self.hand_written, self.block_fn = hand_written, block_fn
        self.rope_fn, self.attend_fn, self.sample_fn = rope_fn, attend_fn, sample_fn

    def _block(self, layer: nn.TransformerEncoderLayer, x: torch.Tensor, start: int,
               cache: tuple[torch.Tensor, torch.Tensor] | None) -> torch.Tensor:
        """One block on the positions start .. start + L − 1 of ``x [B, L, D]``; ``cache``: key and value buffers
        ``[B, H, capacity, D/H]`` that hold the positions before ``start`` and receive these."""
        B, L, D = x.shape
        attention = layer.self_attn
        normed = self._normalise(layer.norm1, x)
        q, k, v = F.linear(normed, attention.in_proj_weight, attention.in_proj_bias).view(
            B, L, 3, self.heads, D // self.heads).unbind(2)  # each [B, L, H, D/H]
        if self.positions == "rope":
            where = torch.arange(start, start + L, device=x.device)
            q, k = self.rope_fn(q, where), self.rope_fn(k, where)
        q, k, v = (t.transpose(1, 2) for t in (q, k, v))  # [B, H, L, D/H]
        if cache is not None:
            cache[0][:, :, start:start + L], cache[1][:, :, start:start + L] = k, v
            k, v = cache[0][:, :, :start + L], cache[1][:, :, :start + L]
        out = fast_causal_attention(q, k, v, causal=start == 0 and L > 1)
        if start > 0 and L > 1:
            raise ValueError("after a cached prefix the blocks take one new position at a time")
        return self._feed_forward(layer, x + attention.out_proj(out.transpose(1, 2).reshape(B, L, D)))

    def _feed_forward(self, layer: nn.TransformerEncoderLayer, h: torch.Tensor) -> torch.Tensor:
        """The block's second half (Eq. 2 of seqmodels.layers.gpt): h + FFN(LN2(h)), SwiGLU's or GELU's."""
        normed = self._normalise(layer.norm2, h)
        if self.ffn == "swiglu":
            return h + swiglu(normed, *layer.linear1.weight.chunk(2), layer.linear2.weight)
        return h + layer.linear2(F.gelu(layer.linear1(normed)))

    def _attend_one_at_a_time(self, x: torch.Tensor, caches: list) -> torch.Tensor:
        """The blocks on the positions of ``x [B, L, D]`` in order, each position's self-attention by ``attend_fn``
        over its block's cache in ``caches`` (None before the first position), which it extends: the last
        position's output ``[B, 1, D]``."""
        for t in range(x.shape[1]):
            h = x[:, t:t + 1]
            for n, layer in enumerate(self.blocks):
                attention = layer.self_attn
                out, caches[n] = self.attend_fn(
                    self._normalise(layer.norm1, h), caches[n],
                    attention.in_proj_weight, attention.in_proj_bias, attention.out_proj.weight,
                    attention.out_proj.bias, self.heads)
                h = self._feed_forward(layer, h + out)
        return h

    def _normalise(self, norm: nn.Module, x: torch.Tensor) -> torch.Tensor:
        """``norm``'s weights applied to ``x``: RMSNorm or layer norm."""
        if self.norm == "rms":
            return F.rms_norm(x, x.shape[-1:], norm.weight, norm.eps)
        return F.layer_norm(x, x.shape[-1:], norm.weight, norm.bias, norm.eps)

    def _inputs(self, ids: torch.Tensor, start: int = 0) -> torch.Tensor:
        x = self.embedding(ids)
        if self.position_embedding is not None:
            if start + ids.shape[1] > self.max_len:
                raise ValueError(f"position {start + ids.shape[1] - 1} is past the {self.max_len} learned positions")
            x = x + self.position_embedding(torch.arange(start, start + ids.shape[1], device=ids.device))
        return x

    def hidden(self, ids: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
        """The final normalised states ``[B, L, D]`` of ``ids [B, L]`` (padding at the end of a row, if any,
        changes no real position under the causal mask; ``mask`` is needed only by the hand-written path)."""
        x = self._inputs(ids)
        if self.hand_written:
            mask = torch.ones_like(ids, dtype=torch.bool) if mask is None else mask
            for layer in self.blocks:
                x = self.block_fn(x, mask, block_weights(layer), self.heads)
        else:
            for layer in self.blocks:
                x = self._block(layer, x, 0, None)
        return self._normalise(self.final_norm, x)

    def logits(self, states: torch.Tensor) -> torch.Tensor:
        return states @ self.embedding.weight.T  # tied to the input embedding

    def forward(self, ids: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
        """Next-token logits ``[B, L, V]`` after every prefix of ``ids [B, L]``."""
        return self.logits(self.hidden(ids, mask))

    def loss(self, inputs: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        """Mean next-token cross-entropy (nats per token) of ``targets`` after the prefixes of ``inputs``."""
        logits = self(inputs)
        return F.cross_entropy(logits.float().flatten(0, 1), targets.flatten())

    @torch.no_grad()
    def generate(self, prompt: torch.Tensor, steps: int, generator: torch.Generator, *, temperature: float = 1.0,
                 top_k: int | None = None, top_p: float | None = None, cache: bool = True) -> torch.Tensor:
        """``prompt [B, P]`` followed by ``steps`` sampled tokens: ``[B, P + steps]``. ``generator`` lives on the
        model's device. Without the cache a learned-position model sees the last ``max_len`` tokens."""
        ids = prompt
        if not cache:
            for _ in range(steps):
                logits = self(ids[:, -self.max_len:] if self.position_embedding is not None else ids)[:, -1]
                ids = torch.cat([ids, self.sample_fn(logits.float(), generator, temperature, top_k, top_p)[:, None]], 1)
            return ids
        B, P = prompt.shape
        capacity = P + steps
        if self.position_embedding is not None and capacity > self.max_len:
            raise ValueError(f"{capacity} tokens do not fit the {self.max_len} learned positions")
        D = self.embedding.embedding_dim
        # the fast path's key and value buffers, allocated once; the hand-written path's caches, grown by attend_fn
        caches = [None] * len(self.blocks) if self.hand_written else [
            tuple(torch.empty(B, self.heads, capacity, D // self.heads, device=prompt.device,
                              dtype=self.embedding.weight.dtype) for _ in range(2)) for _ in self.blocks]
        new, start = prompt, 0
        for _ in range(steps):
            x = self._inputs(new, start)
            if self.hand_written:
                x = self._attend_one_at_a_time(x, caches)
            else:
                for layer, buffer in zip(self.blocks, caches):
                    x = self._block(layer, x, start, buffer)
            logits = self.logits(self._normalise(self.final_norm, x[:, -1]))
            start += new.shape[1]
            new = self.sample_fn(logits.float(), generator, temperature, top_k, top_p)[:, None]
            ids = torch.cat([ids, new], dim=1)
        return ids


class GPTClassifier(nn.Module):
    """A GPT's final state at each row's last real token, through a linear layer: ``[B, C]`` logits."""

    def __init__(self, gpt: GPT, classes: int):
        super().__init__()
        self.gpt = gpt
        self.head = nn.Linear(gpt.embedding.embedding_dim, classes)

    def forward(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        states = self.gpt.hidden(ids, mask)
        last = mask.sum(dim=1) - 1  # right-padded rows: the last real position
        return self.head(states[torch.arange(ids.shape[0], device=ids.device), last])
