"""An encoder-decoder with additive attention (Bahdanau et al., 2015; Pingali; course notes §3-4).

The encoder is a BiLSTM over the source; its outputs are the keys. The decoder is an LSTM over the
target prefix (teacher forcing in training, its own guesses when decoding); at each step its state
queries the keys with ``additive_attention`` and predicts the next token from [state; context].

``hand_written=True``: the course's ``bilstm_encode``/``lstm_encode`` loops and one
``additive_attention`` call per step. Otherwise cuDNN's LSTMs on the padded batch and one ``additive_attention``
call for every step at once (the keys projected once). Same outputs.
"""
import torch
from torch import nn

from seqmodels.decoding.search import Attention, Step
from seqmodels.layers.attention import additive_attention
from seqmodels.models.recurrent_layer import lstm_outputs
from seqmodels.training import at_least_float32
from seqmodels.training.losses import masked_cross_entropy


class AttentionSeq2Seq(nn.Module):
    def __init__(self, source_vocab_size: int, target_vocab_size: int, *, dim: int = 32, hidden: int = 64,
                 attention: int = 64, hand_written: bool = False):
        super().__init__()
        self.source_embedding = nn.Embedding(source_vocab_size, dim, padding_idx=0)
        self.target_embedding = nn.Embedding(target_vocab_size, dim, padding_idx=0)
        self.encoder = nn.LSTM(dim, hidden, batch_first=True, bidirectional=True)
        self.decoder = nn.LSTM(dim, hidden, batch_first=True)
        self.W_q = nn.Parameter(torch.randn(attention, hidden) / hidden ** 0.5)
        self.W_k = nn.Parameter(torch.randn(attention, 2 * hidden) / (2 * hidden) ** 0.5)
        self.v = nn.Parameter(torch.randn(attention) / attention ** 0.5)
        self.combine = nn.Linear(3 * hidden, hidden)
        self.out = nn.Linear(hidden, target_vocab_size)
        self.hand_written = hand_written

    def encode(self, source: torch.Tensor, source_mask: torch.Tensor) -> torch.Tensor:
        """Keys ``[B, Ls, 2H]`` (0 on padding)."""
        return lstm_outputs(self.encoder, self.source_embedding(source), source_mask.sum(1), self.hand_written)

    def attend(self, states: torch.Tensor, keys: torch.Tensor, source_mask: torch.Tensor):
        """Contexts ``[B, T, 2H]`` and weights ``[B, T, Ls]`` for decoder states ``[B, T, H]``."""
        if self.hand_written:
            steps = [additive_attention(states[:, t], keys, source_mask, self.W_q, self.W_k, self.v)
                     for t in range(states.shape[1])]
            return torch.stack([c for c, _ in steps], dim=1), torch.stack([w for _, w in steps], dim=1)
        return additive_attention(states, keys, source_mask, self.W_q, self.W_k, self.v)

    def _logits(self, states, keys, source_mask):
        contexts, weights = self.attend(states, keys, source_mask)
        return self.out(torch.tanh(self.combine(torch.cat([states, contexts], dim=-1)))), weights

    def forward(self, source, source_mask, target_in, target_mask) -> tuple[torch.Tensor, torch.Tensor]:
        """Teacher-forced next-token logits ``[B, T, V]`` and attention weights ``[B, T, Ls]``."""
        keys = self.encode(source, source_mask)
        states = lstm_outputs(self.decoder, self.target_embedding(target_in), target_mask.sum(1), self.hand_written)
        return self._logits(states, keys, source_mask)

    def loss(self, source, source_mask, target_in, target_out, target_mask) -> torch.Tensor:
        logits, _ = self(source, source_mask, target_in, target_mask)
        return masked_cross_entropy(logits, target_out, target_mask)

    def next_token_log_probs(self, source: torch.Tensor) -> Step:
        """For one source sentence (ids ``[Ls]``), the model as ``step(prefix) -> log P(next token) [V]``,
        the form that ``greedy_decode`` and ``beam_search`` search over (``prefix`` starts with ``bos``)."""
        return self.decoding_functions(source)[0]

    def decoding_functions(self, source: torch.Tensor) -> tuple[Step, Attention]:
        """For one source sentence (ids ``[Ls]``): ``step(prefix) -> log P(next token) [V]`` and
        ``attention(prefix) -> weights [Ls]``, where the decoder looked while predicting that token (what
        ``beam_search``'s coverage penalty reads).

        Both share one cache: the decoder state after each prefix is kept, so a prefix one token longer
        than one seen before costs one LSTM step, not a pass over the whole prefix."""
        device = source.device
        source, source_mask = source.unsqueeze(0), torch.ones(1, len(source), dtype=torch.bool, device=device)
        with torch.no_grad():
            keys = self.encode(source, source_mask)
        states: dict[tuple[int, ...], tuple] = {(): (None, None)}  # prefix -> (last output, (h, c))
        predictions: dict[tuple[int, ...], tuple[torch.Tensor, torch.Tensor]] = {}  # prefix -> (log P, weights)

        @torch.no_grad()
        def predict(prefix: list[int]) -> tuple[torch.Tensor, torch.Tensor]:
            prefix = tuple(prefix)
            if prefix not in predictions:
                known = next(n for n in range(len(prefix), -1, -1) if prefix[:n] in states)
                for n in range(known + 1, len(prefix) + 1):
                    token = torch.tensor([[prefix[n - 1]]], device=device)
                    states[prefix[:n]] = self.decoder(self.target_embedding(token), states[prefix[:n - 1]][1])
                logits, weights = self._logits(states[prefix][0], keys, source_mask)
                predictions[prefix] = at_least_float32(logits[0, 0]).log_softmax(-1), weights[0, 0]
            return predictions[prefix]

        return (lambda prefix: predict(prefix)[0]), (lambda prefix: predict(prefix)[1])

    @torch.no_grad()
    def greedy(self, source, source_mask, bos: int, eos: int, max_len: int) -> tuple[list[list[int]], torch.Tensor]:
        """Each row's most likely next token, one step at a time, until ``eos`` or ``max_len`` tokens
        (``eos`` included, ``bos`` not), and the attention weights ``[B, max_len, Ls]``."""
        keys = self.encode(source, source_mask)
        token = torch.full((source.shape[0], 1), bos, dtype=torch.long, device=source.device)
        state, guesses, maps = None, [], []
        for _ in range(max_len):
            output, state = self.decoder(self.target_embedding(token), state)
            logits, weights = self._logits(output, keys, source_mask)
            token = logits.argmax(-1)
            guesses.append(token)
            maps.append(weights)
        rows = torch.cat(guesses, dim=1).tolist()
        return [row[: row.index(eos) + 1] if eos in row else row for row in rows], torch.cat(maps, dim=1)
