"""Byte-level BPE (Radford et al., 2019, GPT-2, §2.2), as the open models since 2023 tokenise: the chapter's BPE
(``seqmodels.text.bpe``) over the UTF-8 bytes of the text instead of its characters, after a pre-tokenising
pattern, with an end-of-text token between documents.

- **Bytes.** The base alphabet is the 256 byte values, so every text has an encoding and nothing is ``[UNK]``.
  Each byte is written as one printable character (GPT-2's ``bytes_to_unicode``: the printable bytes as
  themselves, the 68 others, such as the space and the control bytes, as the characters from U+0100 on; the
  space is ``Ġ``), so the merges stay pairs of strings.
- **Pre-tokenising.** GPT-2's pattern (``PRETOKENIZE``) cuts the text into the English contractions, runs of
  letters, of digits and of other symbols, each with the space before it, and runs of whitespace; BPE merges
  within a piece only, so no token spans a word and the punctuation after it, and " the" (with its space)
  is one piece, the word's start marked by its space.
- **End of text.** ``<|endoftext|>`` ends every document: a token of its own, never split or merged, which
  tells the model that a new document starts (and what it read before does not continue).

One difference from GPT-2, kept on purpose: the pieces are the chapter's words, so each piece's last symbol
carries ``</w>`` as in ``bpe_train`` (GPT-2 has no end marker: the space at the start of the next piece
marks the boundary). The base vocabulary is then every byte with and without ``</w>``, 512 symbols.
"""
from collections import Counter

import regex

from seqmodels.text.bpe import END_OF_WORD, bpe_encode, bpe_train

END_OF_TEXT = "<|endoftext|>"
# GPT-2's pattern (its encoder.py): contractions, letters, digits, other symbols, each after an optional space;
# whitespace not followed by a non-space (so that one space stays with the next word); any other whitespace
PRETOKENIZE = regex.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""")


def bytes_to_symbols() -> dict[int, str]:
    """GPT-2's printable character for each byte: the printable bytes ('!'..'~', '¡'..'¬', '®'..'ÿ') as
    themselves, the others in byte order as chr(256), chr(257), ..."""
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    others = [b for b in range(256) if b not in printable]
    return {**{b: chr(b) for b in printable}, **{b: chr(256 + n) for n, b in enumerate(others)}}


BYTE_SYMBOLS = bytes_to_symbols()
SYMBOL_BYTES = {symbol: b for b, symbol in BYTE_SYMBOLS.items()}


def pretokens(text: str) -> list[str]:
    """``text``'s pieces under ``PRETOKENIZE``, each written as its UTF-8 bytes' symbols."""
    return ["".join(BYTE_SYMBOLS[b] for b in piece.encode("utf-8")) for piece in PRETOKENIZE.findall(text)]


class ByteBPETokenizer:
    """Texts to ids and back: the ids are the 256 byte symbols (GPT-2's order), the same with ``</w>``, every
    merged symbol in the order made, and ``<|endoftext|>`` last."""

    def __init__(self, merges: list[tuple[str, str]]):
        self.merges = list(merges)
        self.ranks = {pair: rank for rank, pair in enumerate(self.merges)}
        base = sorted(BYTE_SYMBOLS.values())
        symbols = [*base, *(s + END_OF_WORD for s in base), *(a + b for a, b in self.merges), END_OF_TEXT]
        self.vocab: dict[str, int] = {}
        for symbol in symbols:
            self.vocab.setdefault(symbol, len(self.vocab))
        self.symbols = list(self.vocab)
        self.end_of_text = self.vocab[END_OF_TEXT]
        self._known: dict[str, list[str]] = {}

    @classmethod
    def train(cls, documents: list[str], num_merges: int) -> "ByteBPETokenizer":
        """The chapter's ``bpe_train`` over the pieces of ``documents`` (counted over all of them)."""
        return cls(bpe_train(Counter(piece for document in documents for piece in pretokens(document)), num_merges))

    def pieces(self, text: str) -> list[str]:
        """``text``'s tokens as symbols (pieces that repeat are encoded once)."""
        tokens = []
        for piece in pretokens(text):
            if piece not in self._known:
                self._known[piece] = bpe_encode(piece, self.ranks)
            tokens += self._known[piece]
        return tokens

    def encode(self, text: str) -> list[int]:
        return [self.vocab[symbol] for symbol in self.pieces(text)]

    def encode_documents(self, documents: list[str]) -> list[int]:
        """The documents one after another, each followed by ``<|endoftext|>``."""
        return [i for document in documents for i in [*self.encode(document), self.end_of_text]]

    def decode(self, ids: list[int]) -> str:
        """The text of ``ids`` (``<|endoftext|>`` written as itself); bytes that are not UTF-8 become U+FFFD."""
        parts, pending = [], bytearray()
        for i in ids:
            if i == self.end_of_text:
                parts.append(pending.decode("utf-8", errors="replace") + END_OF_TEXT)
                pending = bytearray()
            else:
                pending += bytes(SYMBOL_BYTES[c] for c in self.symbols[i].replace(END_OF_WORD, ""))
        return "".join(parts) + pending.decode("utf-8", errors="replace")
