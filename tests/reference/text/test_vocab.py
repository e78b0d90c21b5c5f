"""build_vocab, encode, decode against Aziz's worked examples and properties checked by brute force."""
import random
from collections import Counter

import pytest

from seqmodels import build_vocab, decode, encode

TABLE_F1 = {"[PAD]": 0, "[UNK]": 1, "are": 2, "awesome": 3, "cats": 4, "cute": 5, "dogs": 6}
TOY_CORPUS = [["cats", "are", "awesome"], ["dogs", "are", "cute"], ["cute", "cats"], ["awesome", "dogs"]]


def test_table_f1_from_a_corpus_where_every_count_ties():
    assert build_vocab(TOY_CORPUS) == TABLE_F1
    assert list(build_vocab(TOY_CORPUS)) == list(TABLE_F1)  # insertion order follows the ids too


def test_otters_are_cute_becomes_unk_are_cute():
    ids = encode(["otters", "are", "cute"], TABLE_F1)
    assert ids == [1, 2, 5]
    assert decode(ids, TABLE_F1) == ["[UNK]", "are", "cute"]


def random_corpus(rng: random.Random) -> list[list[str]]:
    words = [f"w{i}" for i in range(rng.randint(1, 12))] + ["[PAD]", "[UNK]"]
    return [[rng.choice(words) for _ in range(rng.randint(0, 10))] for _ in range(rng.randint(1, 6))]


@pytest.mark.parametrize("seed", range(50))
def test_matches_the_definition_checked_pairwise(seed):
    """Every property of the syllabus's rule, checked directly rather than by re-implementing the sort."""
    rng = random.Random(seed)
    corpus, min_freq, max_size = random_corpus(rng), rng.randint(1, 4), rng.choice([None, 0, 1, 3, 20])
    vocab = build_vocab(corpus, min_freq=min_freq, max_size=max_size)
    counts = Counter(t for doc in corpus for t in doc if t not in ("[PAD]", "[UNK]"))
    words = sorted(vocab, key=vocab.get)
    assert sorted(vocab.values()) == list(range(len(vocab)))
    assert words[:2] == ["[PAD]", "[UNK]"]
    eligible = {t for t, n in counts.items() if n >= min_freq}
    assert set(words[2:]) <= eligible
    assert len(words) - 2 == (len(eligible) if max_size is None else min(max_size, len(eligible)))
    for earlier, later in zip(words[2:], words[3:]):
        assert counts[earlier] > counts[later] or (counts[earlier] == counts[later] and earlier < later)
    rank = lambda t: (-counts[t], t)  # noqa: E731 (the order the syllabus defines)
    for dropped in eligible - set(words):  # max_size never drops a word ranked above one it kept
        assert all(rank(kept) < rank(dropped) for kept in words[2:])


def test_does_not_depend_on_document_order():
    rng = random.Random(7)
    for _ in range(20):
        corpus = random_corpus(rng)
        assert build_vocab(corpus) == build_vocab(rng.sample(corpus, len(corpus)))


def test_custom_specials_come_first_in_their_order():
    assert build_vocab([["b", "a", "b"]], specials=("<s>", "</s>")) == {"<s>": 0, "</s>": 1, "b": 2, "a": 3}
    assert build_vocab([["a"]], specials=()) == {"a": 0}


@pytest.mark.parametrize("kwargs, message", [
    ({"min_freq": 0}, "min_freq"),
    ({"max_size": -1}, "max_size"),
    ({"specials": ("[PAD]", "[PAD]")}, "distinct"),
])
def test_bad_arguments_get_a_clear_message(kwargs, message):
    with pytest.raises(ValueError, match=message):
        build_vocab(TOY_CORPUS, **kwargs)


def test_encode_without_an_unk_entry_names_the_token():
    with pytest.raises(KeyError, match="otters"):
        encode(["otters"], {"cats": 0})


def test_decode_of_an_unknown_id_names_the_range():
    with pytest.raises(KeyError, match="0 to 6"):
        decode([7], TABLE_F1)


def test_decode_inverts_encode_on_known_tokens():
    rng = random.Random(3)
    vocab = build_vocab([[f"w{i}" for i in range(30)]])
    for _ in range(20):
        tokens = [f"w{rng.randrange(30)}" for _ in range(rng.randint(0, 15))]
        assert decode(encode(tokens, vocab), vocab) == tokens
