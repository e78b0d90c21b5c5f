"""Byte-pair encoding of words into subword symbols (Sennrich, Haddow & Birch, 2016, "Neural Machine
Translation of Rare Words with Subword Units", Algorithm 1; the encoder of Radford et al., 2019, GPT-2).

A word is its characters followed by the end-of-word symbol ``</w>`` (so ``er`` inside a word and ``er</w>``
at its end are different symbols). Training starts from these characters and repeats::

    count(a, b) = sum over words w of  count(w) · #{i : w_i = a, w_{i+1} = b}             (Alg. 1, get_stats)
    (a, b)* = the most frequent pair; ties: the smallest pair in Python's tuple order
    replace every occurrence of a, b (left to right) by the symbol ab                        (Alg. 1, merge_vocab)

and returns the merges in the order made. Encoding a word applies them by rank: repeatedly merge (every
occurrence of) the adjacent pair that was merged earliest in training, until no pair of the word was.

The reference trains incrementally: it keeps the pair counts and, for every pair, the words that hold it,
and after a merge recounts only the words that changed; a heap ordered by (−count, pair) gives the pair to
merge, with stale entries skipped. Same merges as recounting everything at every step (the tests check it).
"""
import copy
import heapq
from collections import Counter, defaultdict
from collections.abc import Callable

END_OF_WORD = "</w>"


def word_symbols(word: str) -> list[str]:
    """The characters of ``word``, the last one followed by ``</w>``: ``"low"`` -> ``['l', 'o', 'w</w>']``."""
    return [*word[:-1], word[-1] + END_OF_WORD] if word else []


def merge_pair(symbols: list[str], pair: tuple[str, str]) -> list[str]:
    """``symbols`` with every occurrence of ``pair``, scanned left to right, replaced by its concatenation."""
    merged, i = [], 0
    while i < len(symbols):
        if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == pair:
            merged.append(symbols[i] + symbols[i + 1])
            i += 2
        else:
            merged.append(symbols[i])
            i += 1
    return merged


def _pairs(symbols: list[str]) -> Counter:
    return Counter(zip(symbols, symbols[1:]))


def bpe_train(word_counts: dict[str, int], num_merges: int) -> list[tuple[str, str]]:
    """The first ``num_merges`` merges of byte-pair encoding on ``word_counts`` (word -> count), in order;
    fewer if every word becomes one symbol first."""
    words = [word_symbols(word) for word in word_counts]
    counts = list(word_counts.values())
    pair_counts: Counter = Counter()
    holders: dict[tuple[str, str], set[int]] = defaultdict(set)  # pair -> indices of the words that hold it
    for index, symbols in enumerate(words):
        for pair, times in _pairs(symbols).items():
            pair_counts[pair] += times * counts[index]
            holders[pair].add(index)
    heap = [(-count, pair) for pair, count in pair_counts.items()]
    heapq.heapify(heap)
    merges = []
    while heap and len(merges) < num_merges:
        negative_count, pair = heapq.heappop(heap)
        if pair_counts.get(pair, 0) != -negative_count or negative_count == 0:
            continue  # stale: the pair's count changed since this entry was pushed
        merges.append(pair)
        changed = set()
        for index in holders.pop(pair):
            old, new = _pairs(words[index]), None
            words[index] = merge_pair(words[index], pair)
            new = _pairs(words[index])
            for p in old.keys() | new.keys():
                difference = (new[p] - old[p]) * counts[index]
                if difference:
                    pair_counts[p] += difference
                    changed.add(p)
                if new[p]:
                    holders[p].add(index)
                elif p in holders:
                    holders[p].discard(index)
        for p in changed:
            if pair_counts[p] > 0:
                heapq.heappush(heap, (-pair_counts[p], p))
            else:
                del pair_counts[p]
    return merges


def bpe_encode(word: str, merges: list[tuple[str, str]]) -> list[str]:
    """``word`` as BPE symbols: its characters and ``</w>``, then the lowest-ranked adjacent pair of ``merges``
    merged (every occurrence) until none applies. A character never seen in training stays a symbol."""
    ranks = merges if isinstance(merges, dict) else {pair: rank for rank, pair in enumerate(merges)}
    symbols = word_symbols(word)
    while len(symbols) > 1:
        pair = min(zip(symbols, symbols[1:]), key=lambda p: ranks.get(p, len(ranks)))
        if pair not in ranks:
            break
        symbols = merge_pair(symbols, pair)
    return symbols


class BPETokenizer:
    """Words to subword ids and back, with the merges of ``bpe_train``: the vocabulary is ``[PAD]``,
    ``[UNK]`` (for a character outside the training alphabet), the training alphabet and every merged
    symbol. Encoded words are remembered, since running text repeats them."""

    def __init__(self, merges: list[tuple[str, str]], alphabet: set[str]):
        self.merges = list(merges)
        self.encode_fn: Callable | None = None  # bpe_encode with the ranks; see encoding_with
        self.ranks = {pair: rank for rank, pair in enumerate(self.merges)}
        symbols = sorted({c for c in alphabet} | {c + END_OF_WORD for c in alphabet})
        symbols += [a + b for a, b in self.merges]
        self.vocab = {"[PAD]": 0, "[UNK]": 1}
        for symbol in symbols:
            self.vocab.setdefault(symbol, len(self.vocab))
        self.symbols = list(self.vocab)
        self._known: dict[str, list[str]] = {}

    @classmethod
    def train(cls, words: list[str], num_merges: int) -> "BPETokenizer":
        return cls(bpe_train(Counter(words), num_merges), {c for word in words for c in word})

    def encoding_with(self, encode_fn: Callable) -> "BPETokenizer":
        """The same vocabulary and merges, the words cut by ``encode_fn(word, merges)`` (a student's
        ``bpe_encode``, say) instead of the course's."""
        tokenizer = copy.copy(self)
        tokenizer.encode_fn, tokenizer._known = encode_fn, {}
        return tokenizer

    def word_pieces(self, word: str) -> list[str]:
        if word not in self._known:
            self._known[word] = (bpe_encode(word, self.ranks) if self.encode_fn is None
                                 else self.encode_fn(word, self.merges))
        return self._known[word]

    def encode(self, words: list[str]) -> list[int]:
        unknown = self.vocab["[UNK]"]
        return [self.vocab.get(piece, unknown) for word in words for piece in self.word_pieces(word)]

    def decode(self, ids: list[int]) -> str:
        return "".join(self.symbols[i] for i in ids).replace(END_OF_WORD, " ").rstrip()
