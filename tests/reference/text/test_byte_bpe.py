"""Byte-level BPE against the `tokenizers` library (Hugging Face's Rust implementation, requirements-data.txt):
its ByteLevel pre-tokenizer (GPT-2's pattern and byte symbols) with its BPE model given our merges encodes
texts, end-of-text tokens and non-ASCII characters included, to the same ids; its trainer on the same news
text makes the same merges until the first tie between two pairs of equal count, which the two break by
different rules (ours: the smaller pair of strings, as bpe_train; tokenizers: the pair of smaller ids, and a
merged symbol's id is larger than every byte's)."""
import json
from collections import Counter
from itertools import pairwise

import pytest

from seqmodels.data.news_text import news_documents
from seqmodels.text.bpe import merge_pair, word_symbols
from seqmodels.text.byte_bpe import BYTE_SYMBOLS, END_OF_TEXT, ByteBPETokenizer, pretokens

tokenizers = pytest.importorskip("tokenizers", reason="the tokenizers library (requirements-data.txt) is the oracle")

TEXTS = ["Café – naïve 😀 isn't  it?\n\tYes: 1,234.5 (they'll)", "", "   trailing spaces   "]


@pytest.fixture(scope="module")
def news():
    documents = news_documents()
    return documents[:60], documents[270:275]


def byte_level(model):
    tokenizer = tokenizers.Tokenizer(model)
    tokenizer.pre_tokenizer = tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    return tokenizer


def test_the_bytes_are_gpt2s_symbols():
    assert sorted(BYTE_SYMBOLS.values()) == sorted(tokenizers.pre_tokenizers.ByteLevel.alphabet())
    assert BYTE_SYMBOLS[ord(" ")] == "Ġ" and BYTE_SYMBOLS[ord("\n")] == "Ċ" and BYTE_SYMBOLS[ord("A")] == "A"
    assert len(set(BYTE_SYMBOLS.values())) == 256


def test_encoding_gives_the_libraries_ids_with_our_merges(news):
    train, held_out = news
    ours = ByteBPETokenizer.train(train, 300)
    vocab = {symbol: i for symbol, i in ours.vocab.items() if symbol != END_OF_TEXT}
    theirs = byte_level(tokenizers.models.BPE(vocab=vocab, merges=ours.merges, end_of_word_suffix="</w>"))
    theirs.add_special_tokens([END_OF_TEXT])  # the next id: the last, as ours
    texts = [*held_out, *TEXTS]
    expected = theirs.encode("".join(text + END_OF_TEXT for text in texts)).ids
    assert ours.encode_documents(texts) == expected
    assert ours.decode(expected) == "".join(text + END_OF_TEXT for text in texts)
    assert len(ours.vocab) == 256 * 2 + 300 + 1 and ours.end_of_text == len(ours.vocab) - 1


def pair_counts(pieces, merges):
    """Every adjacent pair's count after ``merges``, recounted from scratch (Sennrich et al.'s Algorithm 1)."""
    counts = Counter()
    for piece, times in pieces.items():
        symbols = word_symbols(piece)
        for pair in merges:
            symbols = merge_pair(symbols, pair)
        for pair in pairwise(symbols):
            counts[pair] += times
    return counts


def test_training_makes_the_libraries_merges_until_a_tie(news):
    train, _ = news
    ours = ByteBPETokenizer.train(train, 400).merges
    trainer = tokenizers.trainers.BpeTrainer(vocab_size=1500, end_of_word_suffix="</w>", show_progress=False,
                                             initial_alphabet=tokenizers.pre_tokenizers.ByteLevel.alphabet())
    library = byte_level(tokenizers.models.BPE(end_of_word_suffix="</w>"))
    library.train_from_iterator(train, trainer)
    theirs = [tuple(pair) for pair in json.loads(library.to_str())["model"]["merges"]][:len(ours)]
    first = next(i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b)
    assert ours[:first] == theirs[:first] and first >= 50
    counts = pair_counts(Counter(piece for document in train for piece in pretokens(document)), ours[:first])
    assert counts[ours[first]] == counts[theirs[first]] == max(counts.values())  # a tie, broken two ways
    assert ours[first] < theirs[first]  # ours: the smaller pair of strings
    assert len(set(ours) & set(theirs)) >= 0.97 * len(ours)  # the ties move merges, rarely change them


def test_nothing_is_unknown_and_documents_end_with_the_end_of_text_token():
    tokenizer = ByteBPETokenizer.train(["abc abd"], 2)
    ids = tokenizer.encode_documents(["zoë ☃", "ab"])
    assert tokenizer.decode(ids) == f"zoë ☃{END_OF_TEXT}ab{END_OF_TEXT}"
    assert ids.count(tokenizer.end_of_text) == 2 and ids[-1] == tokenizer.end_of_text
    # pieces "abc" and "Ġabd": (a, b) twice, then a three-way tie, the smallest pair first; "b</w>" is another symbol
    assert tokenizer.merges == [("a", "b"), ("ab", "c</w>")]
    assert tokenizer.pieces("ab abc") == ["a", "b</w>", "Ġ", "abc</w>"]
