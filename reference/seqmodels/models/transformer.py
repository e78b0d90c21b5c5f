"""An encoder-decoder transformer (course notes §4; Vaswani et al., 2017), a drop-in for chapter 11's
``AttentionSeq2Seq``: same ``forward``/``loss``/``greedy``, so ``seqmodels.tasks.dates.translation`` trains it.

    memory = the encoder blocks over √D E[source] + PE                    (Eqs. 5-6 of seqmodels.layers.transformer)
    logits = out(the decoder blocks over √D E[target prefix] + PE, each also attending over the memory)

``tied_output=True``: ``out`` is the target embedding itself, logits = h Eᵀ with no bias (Vaswani et al.
§3.4; Press & Wolf, 2017), the model chapter 12's students assemble from their blocks. ``E``'s entries are
drawn with standard deviation D^−½ and ``h`` leaves a layer norm with entries of about 1, so a logit, a sum
of D products, starts with a spread of about 1 and needs no scaling. Otherwise ``out`` is a linear layer.

``hand_written=True``: ``encode_fn`` and ``decoder_block_fn`` (the course's ``transformer_encode`` and
``decoder_block`` unless told otherwise, e.g. a student's) on the layers' own weights
(``state_dict(keep_vars=True)``: the parameters themselves, so gradients reach them). Otherwise PyTorch's
``nn.TransformerEncoderLayer`` and ``nn.TransformerDecoderLayer``. Same outputs.

Nothing is cached between decoding steps: each greedy step runs the decoder over the whole prefix, which
for outputs of eleven characters costs less than keeping the keys and values of every block.
"""
import math
from collections.abc import Callable

import torch
from torch import nn

from seqmodels.layers.positional import sinusoidal_pe
from seqmodels.layers.transformer import decoder_block, transformer_encode, transformer_inputs
from seqmodels.training.losses import masked_cross_entropy


def block_weights(layer: nn.Module) -> dict[str, torch.Tensor]:
    """A layer's state dict holding its parameters themselves (not detached copies), as a block's ``params``."""
    return layer.state_dict(keep_vars=True)


class TransformerSeq2Seq(nn.Module):
    def __init__(self, source_vocab_size: int, target_vocab_size: int, *, dim: int = 32, heads: int = 4,
                 feedforward: int = 64, layers: int = 2, max_len: int = 64, hand_written: bool = False,
                 encode_fn: Callable = transformer_encode, decoder_block_fn: Callable = decoder_block,
                 tied_output: bool = False):
        super().__init__()
        self.source_embedding = nn.Embedding(source_vocab_size, dim, padding_idx=0)
        self.target_embedding = nn.Embedding(target_vocab_size, dim, padding_idx=0)
        with torch.no_grad():
            for table in (self.source_embedding, self.target_embedding):
                table.weight.normal_(0.0, dim ** -0.5)  # times √D in Eq. 5: entries of about the size of PE's
                table.weight[0].zero_()
        sizes = dict(d_model=dim, nhead=heads, dim_feedforward=feedforward, dropout=0.0, activation="relu",
                     batch_first=True, norm_first=False)
        self.encoder_layers = nn.ModuleList(nn.TransformerEncoderLayer(**sizes) for _ in range(layers))
        self.decoder_layers = nn.ModuleList(nn.TransformerDecoderLayer(**sizes) for _ in range(layers))
        self.out = None if tied_output else nn.Linear(dim, target_vocab_size)
        self.register_buffer("positions", sinusoidal_pe(max_len, dim), persistent=False)
        self.heads, self.max_len, self.hand_written = heads, max_len, hand_written
        self.encode_fn, self.decoder_block_fn = encode_fn, decoder_block_fn

    def _inputs(self, ids: torch.Tensor, table: nn.Embedding) -> torch.Tensor:
        """Eq. 5 with PyTorch's lookup and the stored table of encodings."""
        if ids.shape[1] > self.max_len:
            raise ValueError(f"sequences of length {ids.shape[1]} exceed the {self.max_len} positions of the table")
        return table(ids) * math.sqrt(table.embedding_dim) + self.positions[: ids.shape[1]]

    def encode(self, source: torch.Tensor, source_mask: torch.Tensor) -> torch.Tensor:
        """The encoder's output, the memory ``[B, Ls, D]``."""
        if self.hand_written:
            return self.encode_fn(source, source_mask, self.source_embedding.weight,
                                  [block_weights(layer) for layer in self.encoder_layers], self.heads)
        x = self._inputs(source, self.source_embedding)
        for layer in self.encoder_layers:
            x = layer(x, src_key_padding_mask=~source_mask)
        return x

    def _logits(self, y: torch.Tensor) -> torch.Tensor:
        return y @ self.target_embedding.weight.T if self.out is None else self.out(y)

    def _decode_with_layers(self, target_in, target_mask, memory, source_mask) -> torch.Tensor:
        y = self._inputs(target_in, self.target_embedding)
        T = target_in.shape[1]
        future = torch.ones(T, T, dtype=torch.bool, device=y.device).triu(1)  # True: may not be seen
        for layer in self.decoder_layers:
            y = layer(y, memory, tgt_mask=future, tgt_key_padding_mask=~target_mask,
                      memory_key_padding_mask=~source_mask, tgt_is_causal=True)
        return y

    def decode(self, target_in: torch.Tensor, target_mask: torch.Tensor, memory: torch.Tensor,
               source_mask: torch.Tensor) -> torch.Tensor:
        """Next-token logits ``[B, T, V]`` after every prefix of ``target_in [B, T]``, given the memory."""
        if not self.hand_written:
            return self._logits(self._decode_with_layers(target_in, target_mask, memory, source_mask))
        y = transformer_inputs(target_in, self.target_embedding.weight)
        for layer in self.decoder_layers:
            y = self.decoder_block_fn(y, memory, target_mask, source_mask, block_weights(layer), self.heads)
        return self._logits(y)

    def forward(self, source, source_mask, target_in, target_mask) -> torch.Tensor:
        """Teacher-forced next-token logits ``[B, T, V]``."""
        return self.decode(target_in, target_mask, self.encode(source, source_mask), source_mask)

    def loss(self, source, source_mask, target_in, target_out, target_mask) -> torch.Tensor:
        return masked_cross_entropy(self(source, source_mask, target_in, target_mask), target_out, target_mask)

    def _last_cross_attention(self, target_in, target_mask, memory, source_mask) -> torch.Tensor:
        attention = self.decoder_layers[-1].multihead_attn
        seen = {}
        hook = attention.register_forward_hook(lambda module, args, kwargs, output: seen.update(args=args, **kwargs),
                                               with_kwargs=True)
        try:  # PyTorch's layers, whichever path is chosen: the hook sees the queries the block computed
            self._decode_with_layers(target_in, target_mask, memory, source_mask)
        finally:
            hook.remove()
        _, weights = attention(*seen["args"], key_padding_mask=seen["key_padding_mask"], need_weights=True,
                               average_attn_weights=False)
        return weights

    @torch.no_grad()
    def cross_attention(self, source, source_mask, target_in, target_mask) -> torch.Tensor:
        """The last decoder block's cross-attention weights, head by head: ``[B, H, T, Ls]`` (row t: where the
        prediction after prefix t looks in the source; padded source positions get 0)."""
        return self._last_cross_attention(target_in, target_mask, self.encode(source, source_mask), source_mask)

    @torch.no_grad()
    def greedy(self, source, source_mask, bos: int, eos: int, max_len: int) -> tuple[list[list[int]], torch.Tensor]:
        """Each row's most likely next token, one step at a time, until ``eos`` or ``max_len`` tokens (``eos``
        included, ``bos`` not), and the cross-attention weights of those steps ``[B, H, max_len, Ls]``."""
        memory = self.encode(source, source_mask)
        prefix = torch.full((source.shape[0], 1), bos, dtype=torch.long, device=source.device)
        for _ in range(max_len):
            logits = self.decode(prefix, torch.ones_like(prefix, dtype=torch.bool), memory, source_mask)
            prefix = torch.cat([prefix, logits[:, -1].argmax(-1, keepdim=True)], dim=1)
        inputs = prefix[:, :-1]  # the last token was never read
        weights = self._last_cross_attention(inputs, torch.ones_like(inputs, dtype=torch.bool), memory, source_mask)
        rows = prefix[:, 1:].tolist()
        return [row[: row.index(eos) + 1] if eos in row else row for row in rows], weights
